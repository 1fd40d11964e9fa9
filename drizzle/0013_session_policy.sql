ALTER TABLE `verification_sessions` ADD `accepted_assurance` text;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `double_blind` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `assurance` text;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `holder_binding` text;--> statement-breakpoint
ALTER TABLE `verification_sessions` ADD `denial_reason` text;