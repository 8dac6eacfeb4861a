import { brainLanguage, personRequestIn, textsFor, type BrainLanguage } from '../brain/texts.ts';
import type { ReplyChoice } from '../../shared/index.ts';

/** What the AI says of a voice note it cannot hear (no STT_BASE_URL), in each language the brain speaks. */
const CANNOT_LISTEN: Record<BrainLanguage, string> = {
  en: "I can't listen to voice notes yet. Could you type your question? Or talk to a person from our team.",
  de: 'Ich kann Sprachnachrichten noch nicht anhören. Könnten Sie Ihre Frage schreiben? Oder sprechen Sie mit jemandem aus unserem Team.',
  fr: 'Je ne peux pas encore écouter les messages vocaux. Pourriez-vous écrire votre question ? Ou parlez à une personne de notre équipe.',
  es: 'Todavía no puedo escuchar notas de voz. ¿Podría escribir su pregunta? O hable con una persona de nuestro equipo.',
  ar: 'لا أستطيع الاستماع إلى الرسائل الصوتية بعد. هل يمكنك كتابة سؤالك؟ أو تحدث إلى شخص من فريقنا.',
  ja: '音声メッセージはまだ聞くことができません。ご質問を入力していただけますか？または、チームの担当者とお話しください。',
};

/** The honest answer to a voice note without a transcription API, with the button that asks for a person. */
export function cannotListen(locale: string | undefined): { text: string; choices: ReplyChoice[] } {
  return {
    text: CANNOT_LISTEN[brainLanguage(locale)],
    choices: [{ label: textsFor(locale).person, value: personRequestIn(locale) }],
  };
}
