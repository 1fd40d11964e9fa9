// The account mails' words in each end-user language (docs/end-user-apps.md): an account's mails use the language
// it signed up in. Whole sentences; the link stands on its own line between them.
import type { Locale } from "../db/schema";

export type MailKind = "verify-email" | "reset-password" | "confirm-email-change";
type MailText = { subject: string; before: string; after: string };

export const MAIL_TEXTS: Record<Locale, Record<MailKind, MailText>> = {
  en: {
    "verify-email": {
      subject: "Confirm your email address",
      before: "Confirm your email address for the age-verification service:",
      after: "The link works once and expires in 24 hours.",
    },
    "reset-password": {
      subject: "Reset your password",
      before: "Someone asked to reset the password of this account. If it was you, choose a new password here:",
      after: "The link works once and expires in 1 hour. If it was not you, ignore this message.",
    },
    "confirm-email-change": {
      subject: "Confirm your new email address",
      before: "Confirm that this is the new email address of your account:",
      after: "The link works once and expires in 24 hours.",
    },
  },
  fr: {
    "verify-email": {
      subject: "Confirmez votre adresse e-mail",
      before: "Confirmez votre adresse e-mail pour le service de vérification d’âge :",
      after: "Le lien ne fonctionne qu’une fois et expire dans 24 heures.",
    },
    "reset-password": {
      subject: "Réinitialisez votre mot de passe",
      before:
        "Quelqu’un a demandé la réinitialisation du mot de passe de ce compte. Si c’était vous, choisissez un nouveau mot de passe ici :",
      after: "Le lien ne fonctionne qu’une fois et expire dans 1 heure. Si ce n’était pas vous, ignorez ce message.",
    },
    "confirm-email-change": {
      subject: "Confirmez votre nouvelle adresse e-mail",
      before: "Confirmez qu’il s’agit de la nouvelle adresse e-mail de votre compte :",
      after: "Le lien ne fonctionne qu’une fois et expire dans 24 heures.",
    },
  },
  de: {
    "verify-email": {
      subject: "Bestätigen Sie Ihre E-Mail-Adresse",
      before: "Bestätigen Sie Ihre E-Mail-Adresse für den Altersprüfungsdienst:",
      after: "Der Link funktioniert einmal und läuft in 24 Stunden ab.",
    },
    "reset-password": {
      subject: "Setzen Sie Ihr Passwort zurück",
      before: "Jemand hat das Zurücksetzen des Passworts dieses Kontos angefordert. Wenn Sie es waren, wählen Sie hier ein neues Passwort:",
      after: "Der Link funktioniert einmal und läuft in 1 Stunde ab. Wenn Sie es nicht waren, ignorieren Sie diese Nachricht.",
    },
    "confirm-email-change": {
      subject: "Bestätigen Sie Ihre neue E-Mail-Adresse",
      before: "Bestätigen Sie, dass dies die neue E-Mail-Adresse Ihres Kontos ist:",
      after: "Der Link funktioniert einmal und läuft in 24 Stunden ab.",
    },
  },
  es: {
    "verify-email": {
      subject: "Confirme su dirección de correo",
      before: "Confirme su dirección de correo para el servicio de verificación de edad:",
      after: "El enlace funciona una vez y caduca en 24 horas.",
    },
    "reset-password": {
      subject: "Restablezca su contraseña",
      before: "Alguien ha pedido restablecer la contraseña de esta cuenta. Si fue usted, elija una contraseña nueva aquí:",
      after: "El enlace funciona una vez y caduca en 1 hora. Si no fue usted, ignore este mensaje.",
    },
    "confirm-email-change": {
      subject: "Confirme su nueva dirección de correo",
      before: "Confirme que esta es la nueva dirección de correo de su cuenta:",
      after: "El enlace funciona una vez y caduca en 24 horas.",
    },
  },
  it: {
    "verify-email": {
      subject: "Conferma il tuo indirizzo email",
      before: "Conferma il tuo indirizzo email per il servizio di verifica dell’età:",
      after: "Il link funziona una sola volta e scade tra 24 ore.",
    },
    "reset-password": {
      subject: "Reimposta la tua password",
      before: "Qualcuno ha chiesto di reimpostare la password di questo account. Se sei stato tu, scegli una nuova password qui:",
      after: "Il link funziona una sola volta e scade tra 1 ora. Se non sei stato tu, ignora questo messaggio.",
    },
    "confirm-email-change": {
      subject: "Conferma il tuo nuovo indirizzo email",
      before: "Conferma che questo è il nuovo indirizzo email del tuo account:",
      after: "Il link funziona una sola volta e scade tra 24 ore.",
    },
  },
};
