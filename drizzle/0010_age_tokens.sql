CREATE TABLE `spent_age_tokens` (
	`nonce_hash` text PRIMARY KEY NOT NULL,
	`token_key_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_age_tokens_key` ON `spent_age_tokens` (`token_key_id`);