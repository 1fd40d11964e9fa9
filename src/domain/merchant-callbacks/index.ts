// The merchant's tools around its callbacks: URL rules, allowed origins, signing-secret rotation, test
// events, redelivery and the delivery log. Delivery itself is the callbacks adapter's (src/callbacks/).
export { assertCallbackOriginAllowed, updateAllowedOrigins, UpdateKeyInput } from "./allowed-origins";
export { callbackUrlProblem, MAX_CALLBACK_URL_LENGTH } from "./callback-url";
export { CallbackEventView, listSessionCallbacks } from "./delivery-log";
export { redeliverLatestCallback } from "./redelivery";
export { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS, RotateInput, rotateSigningSecret } from "./secret-rotation";
export { sendTestCallback, TestCallbackInput, TestCallbackResult } from "./test-event";
