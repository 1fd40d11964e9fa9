CREATE TABLE `account_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `account_counters_expires` ON `account_counters` (`expires_at`);
--> statement-breakpoint
ALTER TABLE `kyc_records` ADD `identity_fingerprint` text;--> statement-breakpoint
ALTER TABLE `kyc_records` ADD `rejection_reason` text;--> statement-breakpoint
CREATE UNIQUE INDEX `kyc_records_fingerprint_unique` ON `kyc_records` (`identity_fingerprint`);
