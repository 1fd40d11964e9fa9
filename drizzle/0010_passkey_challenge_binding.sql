-- An approval challenge is bound to its session by a hash of (challenge, nonce), not a stored session id
-- (CONTRACT §5, issue 30): a database reader cannot join a pending challenge's account to a session.
ALTER TABLE `passkey_challenges` DROP COLUMN `session_id`;
