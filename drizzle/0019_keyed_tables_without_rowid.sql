-- What an approval, a token issuance or a passkey challenge writes on the account's side keeps no order
-- of its making (docs/double-blind.md "Threat model"): a rowid table lists its rows in the order they
-- were made (so does an export), and an account's day counter (its first approval or issuance of the
-- day) sat between counters whose windows name a minute, which dated it; a pending challenge sat among
-- other challenges likewise. Without a rowid the rows are kept, scanned and exported in the order of
-- their key, a keyed hash or a challenge's hash.
CREATE TABLE `account_counters_keyed` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`expires_at` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `account_counters_keyed` (`key`, `count`, `expires_at`) SELECT `key`, `count`, `expires_at` FROM `account_counters`;
--> statement-breakpoint
DROP TABLE `account_counters`;
--> statement-breakpoint
ALTER TABLE `account_counters_keyed` RENAME TO `account_counters`;
--> statement-breakpoint
CREATE INDEX `account_counters_expires` ON `account_counters` (`expires_at`);
--> statement-breakpoint
CREATE TABLE `passkey_challenges_keyed` (
	`challenge_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`nonce_hash` text,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `passkey_challenges_keyed` (`challenge_hash`, `user_id`, `purpose`, `nonce_hash`, `expires_at`) SELECT `challenge_hash`, `user_id`, `purpose`, `nonce_hash`, `expires_at` FROM `passkey_challenges`;
--> statement-breakpoint
DROP TABLE `passkey_challenges`;
--> statement-breakpoint
ALTER TABLE `passkey_challenges_keyed` RENAME TO `passkey_challenges`;
--> statement-breakpoint
CREATE INDEX `passkey_challenges_expires` ON `passkey_challenges` (`expires_at`);
