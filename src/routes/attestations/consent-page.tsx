// The consent page of the authorization code flow (docs/attestations.md): what is asked (a batch of
// proof-of-age attestations, saying only "over 18") and where the code will go. The request itself stays
// in the page's URL; the approval is POST /api/attestations/authorizations with the person's sign-in.
export function ConsentPage({ destination }: { destination: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Add proof of age to a wallet</title>
      </head>
      <body>
        <main>
          <h1>Add proof of age to a wallet</h1>
          <p>
            A wallet asks for proofs that you are over 18. They say nothing else about you: no name, no date of birth. They are sent to{" "}
            <strong data-destination>{destination}</strong>. Approve only if that is your own wallet app.
          </p>
          <p>Sign in to your account to approve.</p>
        </main>
      </body>
    </html>
  );
}
