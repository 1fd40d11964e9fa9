// The consent page of the authorization code flow (docs/attestations.md): what is asked (a batch of
// proof-of-age attestations, saying only "over 18"), where the code will go, and the person's sign-in,
// which approves. The request itself stays in the form's action (the page's own query). Plain HTML: no
// script, so nothing but this form can approve on the person's behalf.
export type ConsentPageProps = { destination: string; action: string; error?: string };

export function ConsentPage({ destination, action, error }: ConsentPageProps) {
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
          {error ? (
            <p role="alert" data-error>
              {error}
            </p>
          ) : null}
          <form method="post" action={action}>
            <label>
              Email <input type="email" name="email" autocomplete="username" required />
            </label>
            <label>
              Password <input type="password" name="password" autocomplete="current-password" required />
            </label>
            <button type="submit">Sign in and approve</button>
          </form>
          <p>An account protected by a passkey approves from its own account page instead, with the offer's QR code or link.</p>
        </main>
      </body>
    </html>
  );
}
