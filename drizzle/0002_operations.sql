CREATE TABLE `mail_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient_hash` text NOT NULL,
	`purpose` text NOT NULL,
	`error` text NOT NULL,
	`attempts` integer NOT NULL,
	`failed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_failures_failed_at` ON `mail_failures` (`failed_at`);--> statement-breakpoint
CREATE INDEX `email_tokens_expires` ON `email_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `email_tokens_used` ON `email_tokens` (`used_at`);--> statement-breakpoint
CREATE INDEX `dev_outbox_created` ON `dev_outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `callback_attempts_at` ON `callback_attempts` (`at`);--> statement-breakpoint
CREATE INDEX `sessions_created` ON `verification_sessions` (`created_at`);--> statement-breakpoint
CREATE INDEX `callback_events_state_updated` ON `callback_events` (`state`,`updated_at`);
