// One account mail as the domain writes it, before any transport (outbox, queue, Email Service).
export type Mail = { to: string; subject: string; text: string };
