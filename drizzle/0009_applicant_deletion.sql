CREATE TABLE `applicant_deletion_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`applicant_id` text NOT NULL,
	`error` text NOT NULL,
	`attempts` integer NOT NULL,
	`failed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `applicant_deletion_failures_failed_at` ON `applicant_deletion_failures` (`failed_at`);--> statement-breakpoint
CREATE TABLE `sandbox_deleted_applicants` (
	`applicant_id` text PRIMARY KEY NOT NULL,
	`deleted_at` text NOT NULL
);
