CREATE TABLE `retired_token_keys` (
	`token_key_id` text PRIMARY KEY NOT NULL,
	`retired_at` text NOT NULL
);
