ALTER TABLE `api_keys` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `livemode` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `reference` text;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `metadata` text;--> statement-breakpoint
DROP INDEX `sessions_account_status_created`;--> statement-breakpoint
CREATE INDEX `sessions_account_status_created` ON `verification_sessions` (`account_id`,`status`,`created_at`,`id`,`livemode`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status_code` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `key`),
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires` ON `idempotency_keys` (`expires_at`);
