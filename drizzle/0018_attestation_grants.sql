CREATE TABLE `attestation_grants` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tx_code_hash` text,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`code_challenge` text,
	`redirect_uri` text,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attestation_grants_expires` ON `attestation_grants` (`expires_at`);