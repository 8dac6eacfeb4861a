import type { Locale } from '../../api.ts';

/**
 * The words of the hosted chat's error page (`/chat` that cannot open a chat), in every language
 * of the widget. They ship with the page's own script (`widget/chat.js`), not with the chat app:
 * the page shows them before, and instead of, loading the chat.
 */
export interface PageProblemText {
  /** The page's heading and title. */
  title: string;
  /** The address lacks a site key, or what it has is not one. */
  incomplete: string;
  /** The site key is unknown or was revoked. */
  unavailable: string;
  /** Introduces the technical line, which stays in English (it is for the site's developers). */
  forOwner: string;
}

export const PAGE_PROBLEMS: Record<Locale, PageProblemText> = {
  en: {
    title: 'This chat cannot be opened',
    incomplete: 'The link to this chat is incomplete. Please open the chat from the website or app you came from.',
    unavailable: 'This chat is no longer available. Please contact the shop through its website.',
    forOwner: 'For the site owner:',
  },
  de: {
    title: 'Dieser Chat kann nicht geöffnet werden',
    incomplete:
      'Der Link zu diesem Chat ist unvollständig. Bitte öffnen Sie den Chat auf der Website oder in der App, von der Sie kommen.',
    unavailable: 'Dieser Chat ist nicht mehr verfügbar. Bitte wenden Sie sich über die Website an den Shop.',
    forOwner: 'Für den Betreiber der Website:',
  },
  fr: {
    title: 'Impossible d’ouvrir ce chat',
    incomplete:
      'Le lien vers ce chat est incomplet. Veuillez ouvrir le chat depuis le site ou l’application d’où vous venez.',
    unavailable: 'Ce chat n’est plus disponible. Veuillez contacter la boutique via son site web.',
    forOwner: 'Pour le propriétaire du site :',
  },
  es: {
    title: 'No se puede abrir este chat',
    incomplete:
      'El enlace a este chat está incompleto. Abra el chat desde el sitio web o la aplicación de donde viene.',
    unavailable: 'Este chat ya no está disponible. Póngase en contacto con la tienda a través de su sitio web.',
    forOwner: 'Para el propietario del sitio:',
  },
  ar: {
    title: 'تعذّر فتح هذه المحادثة',
    incomplete: 'رابط هذه المحادثة غير مكتمل. يُرجى فتح المحادثة من الموقع أو التطبيق الذي أتيت منه.',
    unavailable: 'هذه المحادثة لم تعد متاحة. يُرجى التواصل مع المتجر عبر موقعه الإلكتروني.',
    forOwner: 'لمالك الموقع:',
  },
  ja: {
    title: 'このチャットを開けません',
    incomplete:
      'このチャットへのリンクが不完全です。アクセス元のウェブサイトまたはアプリからチャットを開いてください。',
    unavailable: 'このチャットは現在ご利用いただけません。ショップのウェブサイトからお問い合わせください。',
    forOwner: 'サイト運営者の方へ：',
  },
};
