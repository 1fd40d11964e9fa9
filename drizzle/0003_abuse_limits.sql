CREATE TABLE `account_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `account_counters_expires` ON `account_counters` (`expires_at`);
