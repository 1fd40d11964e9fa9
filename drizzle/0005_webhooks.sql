-- docs/callbacks.md: signing-secret rotation with a grace period, and allowed callback origins per key.
-- The previous secret is sealed like the current one (src/lib/sealed-secret.ts), bound to its row AND
-- its slot, so the two ciphertexts cannot be swapped.
ALTER TABLE `api_keys` ADD `previous_signing_secret_enc` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_secret_expires_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `secret_rotated_at` text;--> statement-breakpoint
-- JSON array of origins ("https://host[:port]"); null = any callback_url that passes the URL rules.
ALTER TABLE `api_keys` ADD `allowed_callback_origins` text;
