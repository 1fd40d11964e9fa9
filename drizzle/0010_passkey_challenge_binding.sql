-- An approval challenge is bound to its session by a hash of (challenge, nonce), not a stored session id
-- (docs/api-contract.md §Privacy, docs/passkeys.md): a database reader cannot join a pending challenge's account to a session.
ALTER TABLE `passkey_challenges` DROP COLUMN `session_id`;
