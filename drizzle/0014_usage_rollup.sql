-- usage_days is WITHOUT ROWID (added by hand: drizzle-kit cannot say it): its primary key is the table,
-- so each row is stored once instead of in the table and again in the key's index (docs/capacity.md).
CREATE TABLE `usage_days` (
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`day` text NOT NULL,
	`livemode` integer NOT NULL,
	`approved` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`expired` integer DEFAULT 0 NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `day`, `key_id`),
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `usage_fold` (
	`id` integer PRIMARY KEY NOT NULL,
	`folded_through` text NOT NULL
);
