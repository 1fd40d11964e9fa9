// StrykerJS's Node run (vitest.config.ts here) takes the age tokens' tests that reach no binding: they
// need workerd's RSA-RAW and timingSafeEqual, which the bench's stand-ins give Node.
import { installWorkerdCrypto } from "../bench/workerd-crypto";

installWorkerdCrypto();
