CREATE TABLE `account_directory` (
	`email` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`claimed_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `applicant_shards` (
	`applicant_id` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `identity_claims` (
	`fingerprint` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL
);
--> statement-breakpoint
-- Backfill: every account made before sharding is on this database (shard 0), so its email and its
-- verified document are claimed here; on the other shards the tables are empty when this runs and
-- nothing is copied, which is right.
INSERT INTO `account_directory` (`email`, `user_id`, `claimed_at`) SELECT `email`, `id`, `created_at` FROM `users`;
--> statement-breakpoint
INSERT INTO `identity_claims` (`fingerprint`, `user_id`) SELECT `identity_fingerprint`, `user_id` FROM `kyc_records` WHERE `identity_fingerprint` IS NOT NULL;
