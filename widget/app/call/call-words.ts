/** The call's words in every language the widget speaks; they come with the call's chunk, not the first download. */
export const LABELS: Record<
  string,
  { call: string; calling: string; hangUp: string; mute: string; missed: string; failed: string }
> = {
  en: {
    call: 'Call',
    calling: 'Calling…',
    hangUp: 'Hang up',
    mute: 'Mute',
    missed: 'Nobody could take the call. Try again later, or write to us.',
    failed: 'The call could not be made. Is the microphone allowed?',
  },
  de: {
    call: 'Anrufen',
    calling: 'Es klingelt…',
    hangUp: 'Auflegen',
    mute: 'Stumm',
    missed: 'Niemand konnte den Anruf annehmen. Versuchen Sie es später oder schreiben Sie uns.',
    failed: 'Der Anruf kam nicht zustande. Ist das Mikrofon erlaubt?',
  },
  fr: {
    call: 'Appeler',
    calling: 'Appel en cours…',
    hangUp: 'Raccrocher',
    mute: 'Couper le micro',
    missed: "Personne n'a pu prendre l'appel. Réessayez plus tard ou écrivez-nous.",
    failed: "L'appel n'a pas pu être passé. Le micro est-il autorisé ?",
  },
  es: {
    call: 'Llamar',
    calling: 'Llamando…',
    hangUp: 'Colgar',
    mute: 'Silenciar',
    missed: 'Nadie pudo atender la llamada. Inténtelo más tarde o escríbanos.',
    failed: 'No se pudo hacer la llamada. ¿Está permitido el micrófono?',
  },
  ar: {
    call: 'اتصال',
    calling: 'جارٍ الاتصال…',
    hangUp: 'إنهاء المكالمة',
    mute: 'كتم الصوت',
    missed: 'لم يتمكن أحد من الرد على المكالمة. حاول لاحقًا أو راسلنا.',
    failed: 'تعذر إجراء المكالمة. هل الميكروفون مسموح؟',
  },
  ja: {
    call: '通話',
    calling: '呼び出し中…',
    hangUp: '通話を終了',
    mute: 'ミュート',
    missed: '通話に出られる担当者がいませんでした。後でもう一度お試しいただくか、メッセージをお送りください。',
    failed: '通話を開始できませんでした。マイクは許可されていますか？',
  },
};
