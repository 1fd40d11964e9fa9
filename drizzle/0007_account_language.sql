-- docs/end-user-apps.md: the language an end user signed up in, for the mails the account receives (the locales of docs/api-contract.md §Sessions).
ALTER TABLE `users` ADD `locale` text DEFAULT 'en' NOT NULL;
