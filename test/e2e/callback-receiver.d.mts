export type CallbackReceiver = {
  /** http://127.0.0.1:<port>/hooks/age: allowed as a callback_url in the development configuration. */
  url: string;
  /** Every POST received, in order: lower-case headers and the raw body. */
  received: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
};
/** Starts a callback endpoint that records each POST and answers 204. */
export function startCallbackReceiver(): Promise<CallbackReceiver>;
