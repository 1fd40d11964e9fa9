-- Spent anonymous age tokens (docs/double-blind.md): the token nonce's hash and its key id, nothing else.
CREATE TABLE `spent_age_tokens` (
	`nonce_hash` text PRIMARY KEY NOT NULL,
	`token_key_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_age_tokens_key` ON `spent_age_tokens` (`token_key_id`);
