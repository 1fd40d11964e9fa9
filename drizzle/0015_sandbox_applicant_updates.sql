CREATE TABLE `sandbox_applicant_updates` (
	`applicant_id` text PRIMARY KEY NOT NULL,
	`dob` text NOT NULL,
	`updated_at` text NOT NULL
);
