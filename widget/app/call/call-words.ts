/** The call's words in every language the widget speaks; they come with the call's chunk, not the first download. */
export const LABELS: Record<
  string,
  {
    call: string;
    calling: string;
    hangUp: string;
    mute: string;
    missed: string;
    failed: string;
    /** A call the AI answers (issue 30). */
    ai: string;
    /** The AI handed the call over, and people are rung. */
    ringing: string;
    /** Nobody could take the handed-over call now. */
    waiting: string;
  }
> = {
  en: {
    call: 'Call',
    calling: 'Calling…',
    hangUp: 'Hang up',
    mute: 'Mute',
    missed: 'Nobody could take the call. Try again later, or write to us.',
    failed: 'The call could not be made. Is the microphone allowed?',
    ai: 'You are talking with our AI assistant.',
    ringing: 'Connecting you to a person…',
    waiting: 'Nobody can take the call now. A person will answer you here in the chat.',
  },
  de: {
    call: 'Anrufen',
    calling: 'Es klingelt…',
    hangUp: 'Auflegen',
    mute: 'Stumm',
    missed: 'Niemand konnte den Anruf annehmen. Versuchen Sie es später oder schreiben Sie uns.',
    failed: 'Der Anruf kam nicht zustande. Ist das Mikrofon erlaubt?',
    ai: 'Sie sprechen mit unserem KI-Assistenten.',
    ringing: 'Wir verbinden Sie mit einem Menschen…',
    waiting: 'Gerade kann niemand den Anruf annehmen. Ein Mensch antwortet Ihnen hier im Chat.',
  },
  fr: {
    call: 'Appeler',
    calling: 'Appel en cours…',
    hangUp: 'Raccrocher',
    mute: 'Couper le micro',
    missed: "Personne n'a pu prendre l'appel. Réessayez plus tard ou écrivez-nous.",
    failed: "L'appel n'a pas pu être passé. Le micro est-il autorisé ?",
    ai: 'Vous parlez avec notre assistant IA.',
    ringing: 'Nous vous mettons en relation avec une personne…',
    waiting: "Personne ne peut prendre l'appel pour le moment. Une personne vous répondra ici, dans le chat.",
  },
  es: {
    call: 'Llamar',
    calling: 'Llamando…',
    hangUp: 'Colgar',
    mute: 'Silenciar',
    missed: 'Nadie pudo atender la llamada. Inténtelo más tarde o escríbanos.',
    failed: 'No se pudo hacer la llamada. ¿Está permitido el micrófono?',
    ai: 'Está hablando con nuestro asistente de IA.',
    ringing: 'Le estamos conectando con una persona…',
    waiting: 'Ahora nadie puede atender la llamada. Una persona le responderá aquí, en el chat.',
  },
  ar: {
    call: 'اتصال',
    calling: 'جارٍ الاتصال…',
    hangUp: 'إنهاء المكالمة',
    mute: 'كتم الصوت',
    missed: 'لم يتمكن أحد من الرد على المكالمة. حاول لاحقًا أو راسلنا.',
    failed: 'تعذر إجراء المكالمة. هل الميكروفون مسموح؟',
    ai: 'أنت تتحدث مع مساعدنا الذكي.',
    ringing: 'جارٍ توصيلك بأحد أعضاء الفريق…',
    waiting: 'لا يمكن لأحد الرد على المكالمة الآن. سيرد عليك أحد أعضاء الفريق هنا في المحادثة.',
  },
  ja: {
    call: '通話',
    calling: '呼び出し中…',
    hangUp: '通話を終了',
    mute: 'ミュート',
    missed: '通話に出られる担当者がいませんでした。後でもう一度お試しいただくか、メッセージをお送りください。',
    failed: '通話を開始できませんでした。マイクは許可されていますか？',
    ai: 'AIアシスタントと通話しています。',
    ringing: '担当者におつなぎしています…',
    waiting: 'ただいま通話に出られる担当者がいません。担当者がこのチャットでお返事します。',
  },
};
