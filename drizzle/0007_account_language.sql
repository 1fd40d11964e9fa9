-- Issue 24: the language an end user signed up in, for the mails the account receives (CONTRACT §12 locales).
ALTER TABLE `users` ADD `locale` text DEFAULT 'en' NOT NULL;
