// The end user's pages in English: the reference catalogue. Every other language has every key (a test).
// Whole sentences only, with {named} values filled in; never text assembled from fragments.
export const en = {
  "page.title": "Confirm your age",
  "page.language": "Language",
  "intro.asks": "{merchant} asks you to confirm that you are at least {age}",
  "intro.asks.anonymous": "A website asks you to confirm that you are at least {age}",
  "intro.valid": "This link is valid until {time}.",
  "intro.how": "Sign in or create a free account to answer. Only a yes or no is shared: never your name, your date of birth or your documents.",
  "intro.not_now": "Not now",
  "decline.title": "Decline this request?",
  "decline.text": "{merchant} will learn only that you declined. You need no account for this.",
  "decline.confirm": "Yes, decline",
  "decline.back": "Go back",
  "decide.send": "Send my answer",
  "result.approved.title": "You are verified",
  "result.approved.text": "{merchant} now knows that you are at least {age}. Nothing else was shared.",
  "result.declined.title": "You declined",
  "result.declined.text": "{merchant} learns only that the request was declined.",
  "result.underage.title": "Not old enough for this request",
  "result.underage.text": "Your verified date of birth does not meet the minimum age of {age}. {merchant} learns only that the request was not approved.",
  "result.expired.title": "This request has expired",
  "result.expired.text": "Age requests are valid for a limited time. Go back to {merchant} and start again to get a new link.",
  "result.used.approved": "This request was already answered: approved on {time}",
  "result.used.denied": "This request was already answered: declined on {time}",
  "result.used.text": "Each link can be answered once. If it was not you, go back to {merchant} and start again.",
  "result.invalid.title": "This link is not valid",
  "result.invalid.text": "The link is incomplete, was changed, or belongs to another request. Open it again from the website, or scan its QR code again.",
  "result.receipt": "Receipt {receipt}",
  "result.return": "Back to {merchant}",
  "result.return.anonymous": "Back to the website",
  "result.close": "You can close this page.",
  "merchant.fallback": "The website",
} as const;

export type TextKey = keyof typeof en;
export type Catalogue = Record<TextKey, string>;
