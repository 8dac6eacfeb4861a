import type { Locale } from '../api.ts';

/**
 * What the attach tray and the files in the message list say, in every language the widget
 * speaks. These load with the attachments chunk (the first download carries only the attach
 * button's name, `attach` in i18n/), so every catalogue is here, each checked to have every string.
 */
const en = {
  tray: 'File to send',
  send: 'Send file',
  remove: 'Remove',
  sending: 'Sending… {percent}%',
  errorType:
    'Only photos (PNG, JPEG, GIF, WebP), PDF, audio (Ogg/Opus, WebM, M4A, MP3, WAV) and video (MP4, WebM) can be sent.',
  errorSize: 'This file is too big: files can be at most {max}.',
  errorPixels: 'This image has too many pixels to be sent. Please send a smaller one.',
  errorBusy: 'Too many files at once. Please wait a minute and try again.',
  errorFull: 'This chat cannot take more files just now. Please describe it in words, or try again later.',
  errorFailed: 'The file could not be sent. Please try again.',
  openImage: 'Open {name} full size',
  voiceNote: 'Voice note {name}',
  video: 'Video {name}',
  recorder: 'Voice note',
  recorded: 'Recorded {time}',
  cancel: 'Cancel',
  sendNote: 'Send voice note',
  micDenied:
    'The microphone is not allowed, so a voice note cannot be recorded. You can allow it in your browser’s settings.',
};

export type AttachmentKey = keyof typeof en;

const CATALOGUES: Record<Locale, Record<AttachmentKey, string>> = {
  en,
  de: {
    tray: 'Zu sendende Datei',
    send: 'Datei senden',
    remove: 'Entfernen',
    sending: 'Wird gesendet… {percent} %',
    errorType:
      'Nur Fotos (PNG, JPEG, GIF, WebP), PDF, Audio (Ogg/Opus, WebM, M4A, MP3, WAV) und Video (MP4, WebM) können gesendet werden.',
    errorSize: 'Diese Datei ist zu groß: Dateien dürfen höchstens {max} groß sein.',
    errorPixels: 'Dieses Bild hat zu viele Pixel. Bitte senden Sie ein kleineres.',
    errorBusy: 'Zu viele Dateien auf einmal. Bitte warten Sie eine Minute und versuchen Sie es erneut.',
    errorFull:
      'Dieser Chat kann gerade keine weiteren Dateien annehmen. Bitte beschreiben Sie es in Worten oder versuchen Sie es später erneut.',
    errorFailed: 'Die Datei konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
    openImage: '{name} in voller Größe öffnen',
    voiceNote: 'Sprachnachricht {name}',
    video: 'Video {name}',
    recorder: 'Sprachnachricht',
    recorded: 'Aufgenommen: {time}',
    cancel: 'Abbrechen',
    sendNote: 'Sprachnachricht senden',
    micDenied:
      'Das Mikrofon ist nicht erlaubt, daher kann keine Sprachnachricht aufgenommen werden. Sie können es in den Einstellungen Ihres Browsers erlauben.',
  },
  fr: {
    tray: 'Fichier à envoyer',
    send: 'Envoyer le fichier',
    remove: 'Retirer',
    sending: 'Envoi… {percent} %',
    errorType:
      'Seuls les photos (PNG, JPEG, GIF, WebP), les PDF, l’audio (Ogg/Opus, WebM, M4A, MP3, WAV) et la vidéo (MP4, WebM) peuvent être envoyés.',
    errorSize: 'Ce fichier est trop lourd : {max} au maximum.',
    errorPixels: 'Cette image a trop de pixels pour être envoyée. Veuillez en envoyer une plus petite.',
    errorBusy: 'Trop de fichiers à la fois. Veuillez patienter une minute et réessayer.',
    errorFull:
      'Ce chat ne peut plus recevoir de fichiers pour le moment. Décrivez-le en quelques mots ou réessayez plus tard.',
    errorFailed: "Le fichier n'a pas pu être envoyé. Veuillez réessayer.",
    openImage: 'Ouvrir {name} en taille réelle',
    voiceNote: 'Message vocal {name}',
    video: 'Vidéo {name}',
    recorder: 'Message vocal',
    recorded: 'Enregistré : {time}',
    cancel: 'Annuler',
    sendNote: 'Envoyer le message vocal',
    micDenied:
      "Le micro n'est pas autorisé : impossible d'enregistrer un message vocal. Vous pouvez l'autoriser dans les réglages de votre navigateur.",
  },
  es: {
    tray: 'Archivo para enviar',
    send: 'Enviar archivo',
    remove: 'Quitar',
    sending: 'Enviando… {percent} %',
    errorType:
      'Solo se pueden enviar fotos (PNG, JPEG, GIF, WebP), PDF, audio (Ogg/Opus, WebM, M4A, MP3, WAV) y vídeo (MP4, WebM).',
    errorSize: 'Este archivo es demasiado grande: como máximo {max}.',
    errorPixels: 'Esta imagen tiene demasiados píxeles para enviarla. Envía una más pequeña.',
    errorBusy: 'Demasiados archivos a la vez. Espera un minuto y vuelve a intentarlo.',
    errorFull: 'Este chat no puede recibir más archivos por ahora. Descríbelo con palabras o inténtalo más tarde.',
    errorFailed: 'No se pudo enviar el archivo. Vuelve a intentarlo.',
    openImage: 'Abrir {name} a tamaño completo',
    voiceNote: 'Nota de voz {name}',
    video: 'Vídeo {name}',
    recorder: 'Nota de voz',
    recorded: 'Grabado: {time}',
    cancel: 'Cancelar',
    sendNote: 'Enviar nota de voz',
    micDenied:
      'El micrófono no está permitido, así que no se puede grabar una nota de voz. Puedes permitirlo en los ajustes del navegador.',
  },
  ar: {
    tray: 'ملف للإرسال',
    send: 'إرسال الملف',
    remove: 'إزالة',
    sending: 'جارٍ الإرسال… {percent}%',
    errorType:
      'يمكن إرسال الصور (PNG وJPEG وGIF وWebP) وملفات PDF والصوت (Ogg/Opus وWebM وM4A وMP3 وWAV) والفيديو (MP4 وWebM) فقط.',
    errorSize: 'هذا الملف كبير جدًا: الحد الأقصى {max}.',
    errorPixels: 'هذه الصورة تحتوي على عدد كبير جدًا من البكسلات. يُرجى إرسال صورة أصغر.',
    errorBusy: 'ملفات كثيرة في وقت واحد. يُرجى الانتظار دقيقة ثم المحاولة مرة أخرى.',
    errorFull: 'لا يمكن لهذه المحادثة استقبال ملفات أخرى الآن. يُرجى وصفه بالكلمات أو المحاولة لاحقًا.',
    errorFailed: 'تعذّر إرسال الملف. يُرجى المحاولة مرة أخرى.',
    openImage: 'فتح {name} بالحجم الكامل',
    voiceNote: 'رسالة صوتية {name}',
    video: 'فيديو {name}',
    recorder: 'رسالة صوتية',
    recorded: 'مدة التسجيل {time}',
    cancel: 'إلغاء',
    sendNote: 'إرسال الرسالة الصوتية',
    micDenied: 'الميكروفون غير مسموح به، لذا لا يمكن تسجيل رسالة صوتية. يمكنك السماح به من إعدادات المتصفح.',
  },
  ja: {
    tray: '送信するファイル',
    send: 'ファイルを送信',
    remove: '削除',
    sending: '送信中… {percent}%',
    errorType:
      '送信できるのは写真（PNG、JPEG、GIF、WebP）、PDF、音声（Ogg/Opus、WebM、M4A、MP3、WAV）、動画（MP4、WebM）だけです。',
    errorSize: 'ファイルが大きすぎます。{max} までです。',
    errorPixels: 'この画像はピクセル数が多すぎるため送信できません。小さい画像を送ってください。',
    errorBusy: '一度に送るファイルが多すぎます。1 分待ってからもう一度お試しください。',
    errorFull: 'このチャットは現在これ以上ファイルを受け取れません。言葉で説明するか、後でもう一度お試しください。',
    errorFailed: 'ファイルを送信できませんでした。もう一度お試しください。',
    openImage: '{name} を原寸で開く',
    voiceNote: '音声メッセージ {name}',
    video: '動画 {name}',
    recorder: '音声メッセージ',
    recorded: '録音時間 {time}',
    cancel: 'キャンセル',
    sendNote: '音声メッセージを送信',
    micDenied: 'マイクが許可されていないため、音声メッセージを録音できません。ブラウザの設定で許可できます。',
  },
};

/** The attachment strings of `locale` (English for any other), with `{name}`-style values filled in. */
export function attachmentStrings(locale: string) {
  const catalogue = CATALOGUES[locale as Locale] ?? en;
  return (key: AttachmentKey, values: Record<string, string | number> = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** A file's size as people read it in `locale`, counted in 1,024s as file managers do: 820 kB, 2.4 MB, 10 MB. */
export function fileSize(bytes: number, locale: string): string {
  const mega = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: mega ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: mega ? 1 : 0,
  }).format(mega ? bytes / (1024 * 1024) : Math.max(1, bytes / 1024));
}
