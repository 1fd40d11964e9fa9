// Notices: account mails that carry no link, sent to the account's address when something changed that
// its owner must be able to notice (docs/security-privacy.md): a password changed, an email change asked for (to the old
// address, which the change is about to leave), passkeys removed by a password reset. In each end-user
// language, like the link mails (src/mail/mail-texts.ts).
import type { Locale } from "../db/schema";

export type NoticeKind = "password-changed" | "email-change-requested" | "passkeys-removed";
type NoticeText = { subject: string; text: string };

export const NOTICE_TEXTS: Record<Locale, Record<NoticeKind, NoticeText>> = {
  en: {
    "password-changed": {
      subject: "Your password was changed",
      text: 'The password of your age-verification account was just changed, and every earlier sign-in was ended. If this was not you, reset your password at once from the sign-in page ("Forgot password").',
    },
    "email-change-requested": {
      subject: "A new email address was asked for your account",
      text: 'Someone signed in to your age-verification account asked to move it to another email address. The change takes effect only once the new address confirms it. If this was not you, reset your password at once from the sign-in page ("Forgot password").',
    },
    "passkeys-removed": {
      subject: "Your passkeys were removed",
      text: "Your password was reset with the link we mailed you, and the passkeys on your account were removed, so that a stolen sign-in cannot keep approving requests in your name. Sign in and add a passkey again.",
    },
  },
  fr: {
    "password-changed": {
      subject: "Votre mot de passe a été modifié",
      text: "Le mot de passe de votre compte de vérification d’âge vient d’être modifié, et toutes les connexions précédentes ont été fermées. Si ce n’était pas vous, réinitialisez immédiatement votre mot de passe depuis la page de connexion (« Mot de passe oublié »).",
    },
    "email-change-requested": {
      subject: "Une nouvelle adresse e-mail a été demandée pour votre compte",
      text: "Une personne connectée à votre compte de vérification d’âge a demandé à le déplacer vers une autre adresse e-mail. Le changement ne prend effet qu’une fois la nouvelle adresse confirmée. Si ce n’était pas vous, réinitialisez immédiatement votre mot de passe depuis la page de connexion (« Mot de passe oublié »).",
    },
    "passkeys-removed": {
      subject: "Vos clés d’accès ont été supprimées",
      text: "Votre mot de passe a été réinitialisé avec le lien que nous vous avons envoyé, et les clés d’accès de votre compte ont été supprimées, afin qu’une connexion volée ne puisse plus approuver de demandes en votre nom. Connectez-vous et ajoutez de nouveau une clé d’accès.",
    },
  },
  de: {
    "password-changed": {
      subject: "Ihr Passwort wurde geändert",
      text: "Das Passwort Ihres Kontos beim Altersprüfungsdienst wurde soeben geändert, und alle früheren Anmeldungen wurden beendet. Wenn Sie es nicht waren, setzen Sie Ihr Passwort sofort auf der Anmeldeseite zurück („Passwort vergessen“).",
    },
    "email-change-requested": {
      subject: "Für Ihr Konto wurde eine neue E-Mail-Adresse angefordert",
      text: "Jemand, der bei Ihrem Konto beim Altersprüfungsdienst angemeldet ist, hat verlangt, es auf eine andere E-Mail-Adresse umzustellen. Die Änderung wird erst wirksam, wenn die neue Adresse sie bestätigt. Wenn Sie es nicht waren, setzen Sie Ihr Passwort sofort auf der Anmeldeseite zurück („Passwort vergessen“).",
    },
    "passkeys-removed": {
      subject: "Ihre Passkeys wurden entfernt",
      text: "Ihr Passwort wurde mit dem Link zurückgesetzt, den wir Ihnen geschickt haben, und die Passkeys Ihres Kontos wurden entfernt, damit eine gestohlene Anmeldung keine Anfragen mehr in Ihrem Namen bestätigen kann. Melden Sie sich an und fügen Sie erneut einen Passkey hinzu.",
    },
  },
  es: {
    "password-changed": {
      subject: "Se cambió su contraseña",
      text: "Se acaba de cambiar la contraseña de su cuenta del servicio de verificación de edad y se cerraron todas las sesiones anteriores. Si no fue usted, restablezca su contraseña de inmediato desde la página de inicio de sesión («¿Olvidó su contraseña?»).",
    },
    "email-change-requested": {
      subject: "Se pidió una nueva dirección de correo para su cuenta",
      text: "Alguien con la sesión iniciada en su cuenta del servicio de verificación de edad pidió trasladarla a otra dirección de correo. El cambio solo se aplica cuando la nueva dirección lo confirma. Si no fue usted, restablezca su contraseña de inmediato desde la página de inicio de sesión («¿Olvidó su contraseña?»).",
    },
    "passkeys-removed": {
      subject: "Se eliminaron sus llaves de acceso",
      text: "Su contraseña se restableció con el enlace que le enviamos y se eliminaron las llaves de acceso de su cuenta, para que una sesión robada no pueda seguir aprobando solicitudes en su nombre. Inicie sesión y vuelva a añadir una llave de acceso.",
    },
  },
  it: {
    "password-changed": {
      subject: "La tua password è stata cambiata",
      text: "La password del tuo account del servizio di verifica dell’età è appena stata cambiata e tutti gli accessi precedenti sono stati chiusi. Se non sei stato tu, reimposta subito la password dalla pagina di accesso («Password dimenticata»).",
    },
    "email-change-requested": {
      subject: "È stato chiesto un nuovo indirizzo email per il tuo account",
      text: "Qualcuno che ha effettuato l’accesso al tuo account del servizio di verifica dell’età ha chiesto di spostarlo su un altro indirizzo email. La modifica ha effetto solo quando il nuovo indirizzo la conferma. Se non sei stato tu, reimposta subito la password dalla pagina di accesso («Password dimenticata»).",
    },
    "passkeys-removed": {
      subject: "Le tue passkey sono state rimosse",
      text: "La tua password è stata reimpostata con il link che ti abbiamo inviato e le passkey del tuo account sono state rimosse, così che un accesso rubato non possa più approvare richieste a tuo nome. Accedi e aggiungi di nuovo una passkey.",
    },
  },
};
