import type { BrainLanguage } from './texts.ts';

/** The brain's own sentences in one tone. */
/** How the agent speaks, chosen by the operator. */
export type AgentTone = 'friendly' | 'neutral' | 'formal';

export interface BrainVoice {
  handover: string;
  /** Handing over because the AI kept finding no answer (the `after_failed_answers` rule). */
  noAnswerHandover: string;
  farewell: string;
  welcome: string;
  helped: string;
  notHelped: string;
  /** How the model is told to speak (in English: it is the model's instruction, not the customer's words). */
  prompt: string;
}

/** What the customer reads of a voice: every sentence but the model's instruction. */
export type SpokenVoice = Omit<BrainVoice, 'prompt'>;

/** The English voices, each tone with the model's instruction. */
export const ENGLISH_VOICES: Record<AgentTone, BrainVoice> = {
  friendly: {
    handover: "Of course. I'm passing you to a person from our team; they will answer here as soon as they can.",
    noAnswerHandover:
      "I'm sorry I couldn't find the answer for you. I'm passing you to a person from our team; they will answer here as soon as they can.",
    farewell: "You're welcome! I'm glad I could help. I'll close this chat now; write again any time.",
    welcome: "You're welcome! Is there anything else I can help you with?",
    helped: 'Glad that helped! Is there anything else I can help you with?',
    notHelped: "I'm sorry that didn't help. You can put your question another way, or talk to a person from our team.",
    prompt: 'Be brief, warm and friendly.',
  },
  neutral: {
    handover: 'A person from our team will take over this conversation and answer here.',
    noAnswerHandover:
      'No answer was found in our help articles. A person from our team will take over this conversation and answer here.',
    farewell: 'Thank you. This chat is now closed; you can write again at any time.',
    welcome: 'You are welcome. Is there anything else?',
    helped: 'Thank you for the feedback. Is there anything else?',
    notHelped: 'That did not answer the question. You can put it another way, or talk to a person from our team.',
    prompt: 'Be brief, clear and matter-of-fact, without small talk or exclamation marks.',
  },
  formal: {
    handover: 'Certainly. I shall transfer you to a member of our team, who will reply here as soon as possible.',
    noAnswerHandover:
      'I apologise; I could not find the answer. I shall transfer you to a member of our team, who will reply here as soon as possible.',
    farewell:
      'You are most welcome; I am pleased to have been of assistance. This conversation will now be closed. Please do not hesitate to write again.',
    welcome: 'You are most welcome. May I assist you with anything else?',
    helped: 'I am pleased that was helpful. May I assist you with anything else?',
    notHelped:
      'I apologise that this was not helpful. You may phrase your question differently, or speak with a member of our team.',
    prompt:
      'Be brief, courteous and formal: address the customer politely, and use no casual words or exclamation marks.',
  },
};

/**
 * The voices in the brain's other languages (texts.ts), tone for tone: the same sentences as a
 * person of that language would say them, not word for word. German, Spanish and French address
 * the customer formally in every tone (Sie, usted, vous), as shops there do; the tones differ in
 * warmth, as in English.
 */
export const TRANSLATED_VOICES: Record<Exclude<BrainLanguage, 'en'>, Record<AgentTone, SpokenVoice>> = {
  de: {
    friendly: {
      handover:
        'Gern. Ich gebe Sie an eine Person aus unserem Team weiter; sie antwortet Ihnen hier, so schnell sie kann.',
      noAnswerHandover:
        'Es tut mir leid, dass ich keine Antwort finden konnte. Ich gebe Sie an eine Person aus unserem Team weiter; sie antwortet Ihnen hier, so schnell sie kann.',
      farewell:
        'Gern geschehen! Schön, dass ich helfen konnte. Ich schließe diesen Chat jetzt; schreiben Sie jederzeit wieder.',
      welcome: 'Gern geschehen! Kann ich Ihnen sonst noch helfen?',
      helped: 'Schön, dass das geholfen hat! Kann ich Ihnen sonst noch helfen?',
      notHelped:
        'Schade, dass das nicht geholfen hat. Sie können Ihre Frage anders stellen oder mit einer Person aus unserem Team sprechen.',
    },
    neutral: {
      handover: 'Eine Person aus unserem Team übernimmt dieses Gespräch und antwortet hier.',
      noAnswerHandover:
        'In unseren Hilfeartikeln wurde keine Antwort gefunden. Eine Person aus unserem Team übernimmt dieses Gespräch und antwortet hier.',
      farewell: 'Danke. Dieser Chat ist jetzt beendet; Sie können jederzeit wieder schreiben.',
      welcome: 'Gern geschehen. Gibt es noch etwas?',
      helped: 'Danke für die Rückmeldung. Gibt es noch etwas?',
      notHelped:
        'Das hat die Frage nicht beantwortet. Sie können sie anders stellen oder mit einer Person aus unserem Team sprechen.',
    },
    formal: {
      handover:
        'Selbstverständlich. Ich verbinde Sie mit einem Mitglied unseres Teams, das Ihnen hier schnellstmöglich antworten wird.',
      noAnswerHandover:
        'Ich bitte um Entschuldigung; ich konnte die Antwort nicht finden. Ich verbinde Sie mit einem Mitglied unseres Teams, das Ihnen hier schnellstmöglich antworten wird.',
      farewell:
        'Sehr gern; es freut mich, dass ich Ihnen behilflich sein konnte. Dieses Gespräch wird nun beendet. Zögern Sie nicht, uns erneut zu schreiben.',
      welcome: 'Sehr gern. Darf ich Ihnen noch bei etwas anderem behilflich sein?',
      helped:
        'Es freut mich, dass Ihnen das weitergeholfen hat. Darf ich Ihnen noch bei etwas anderem behilflich sein?',
      notHelped:
        'Ich bedaure, dass Ihnen das nicht weitergeholfen hat. Sie können Ihre Frage anders formulieren oder mit einem Mitglied unseres Teams sprechen.',
    },
  },
  es: {
    friendly: {
      handover: 'Por supuesto. Le paso con una persona de nuestro equipo; le responderá aquí lo antes posible.',
      noAnswerHandover:
        'Siento no haber encontrado la respuesta. Le paso con una persona de nuestro equipo; le responderá aquí lo antes posible.',
      farewell: '¡De nada! Me alegra haber podido ayudar. Cierro este chat ahora; escríbanos cuando quiera.',
      welcome: '¡De nada! ¿Puedo ayudarle en algo más?',
      helped: '¡Me alegra que le haya servido! ¿Puedo ayudarle en algo más?',
      notHelped:
        'Siento que no le haya servido. Puede formular su pregunta de otra manera o hablar con una persona de nuestro equipo.',
    },
    neutral: {
      handover: 'Una persona de nuestro equipo se hará cargo de esta conversación y responderá aquí.',
      noAnswerHandover:
        'No se encontró una respuesta en nuestros artículos de ayuda. Una persona de nuestro equipo se hará cargo de esta conversación y responderá aquí.',
      farewell: 'Gracias. Este chat se ha cerrado; puede volver a escribir en cualquier momento.',
      welcome: 'De nada. ¿Hay algo más?',
      helped: 'Gracias por su respuesta. ¿Hay algo más?',
      notHelped:
        'Eso no respondió a la pregunta. Puede formularla de otra manera o hablar con una persona de nuestro equipo.',
    },
    formal: {
      handover:
        'Por supuesto. Le transferiré a un miembro de nuestro equipo, que le responderá aquí a la mayor brevedad.',
      noAnswerHandover:
        'Le pido disculpas; no he podido encontrar la respuesta. Le transferiré a un miembro de nuestro equipo, que le responderá aquí a la mayor brevedad.',
      farewell:
        'Ha sido un placer; me alegra haberle sido de ayuda. Esta conversación se cerrará ahora. No dude en escribirnos de nuevo.',
      welcome: 'Ha sido un placer. ¿Puedo ayudarle en algo más?',
      helped: 'Me complace que le haya sido útil. ¿Puedo ayudarle en algo más?',
      notHelped:
        'Lamento que esto no le haya sido útil. Puede formular su pregunta de otra manera o hablar con un miembro de nuestro equipo.',
    },
  },
  fr: {
    friendly: {
      handover: 'Bien sûr. Je vous passe à une personne de notre équipe ; elle vous répondra ici dès que possible.',
      noAnswerHandover:
        "Pardon, je n'ai pas trouvé la réponse. Je vous passe à une personne de notre équipe ; elle vous répondra ici dès que possible.",
      farewell:
        "Avec plaisir, et tant mieux si j'ai pu vous aider ! Je ferme ce chat maintenant ; écrivez-nous quand vous voulez.",
      welcome: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
      helped: 'Tant mieux si cela vous a aidé ! Puis-je vous aider pour autre chose ?',
      notHelped:
        'Dommage que cela ne vous ait pas aidé. Vous pouvez reformuler votre question, ou parler à une personne de notre équipe.',
    },
    neutral: {
      handover: 'Une personne de notre équipe va reprendre cette conversation et répondra ici.',
      noAnswerHandover:
        "Aucune réponse n'a été trouvée dans nos articles d'aide. Une personne de notre équipe va reprendre cette conversation et répondra ici.",
      farewell: 'Merci. Ce chat est maintenant fermé ; vous pouvez écrire de nouveau à tout moment.',
      welcome: 'Je vous en prie. Y a-t-il autre chose ?',
      helped: 'Merci pour votre retour. Y a-t-il autre chose ?',
      notHelped:
        "Cela n'a pas répondu à la question. Vous pouvez la reformuler, ou parler à une personne de notre équipe.",
    },
    formal: {
      handover:
        'Certainement. Je vous transfère à un membre de notre équipe, qui vous répondra ici dans les meilleurs délais.',
      noAnswerHandover:
        "Je vous prie de m'excuser ; je n'ai pas trouvé la réponse. Je vous transfère à un membre de notre équipe, qui vous répondra ici dans les meilleurs délais.",
      farewell:
        "Je vous en prie ; ce fut un plaisir de vous aider. Cette conversation va maintenant être close. N'hésitez pas à nous écrire de nouveau.",
      welcome: 'Je vous en prie. Puis-je vous aider pour autre chose ?',
      helped: 'Je me réjouis que cela vous ait été utile. Puis-je vous aider pour autre chose ?',
      notHelped:
        'Je regrette que cela ne vous ait pas été utile. Vous pouvez formuler votre question autrement, ou vous adresser à un membre de notre équipe.',
    },
  },
  ar: {
    friendly: {
      handover: 'بالتأكيد. سأحولك إلى شخص من فريقنا، وسيرد عليك هنا في أقرب وقت ممكن.',
      noAnswerHandover:
        'عذرًا، لم أتمكن من العثور على الإجابة. سأحولك إلى شخص من فريقنا، وسيرد عليك هنا في أقرب وقت ممكن.',
      farewell: 'على الرحب والسعة! يسعدني أنني استطعت المساعدة. سأغلق هذه المحادثة الآن، ويمكنك الكتابة لنا في أي وقت.',
      welcome: 'على الرحب والسعة! هل يمكنني مساعدتك في شيء آخر؟',
      helped: 'يسعدني أن ذلك ساعدك! هل يمكنني مساعدتك في شيء آخر؟',
      notHelped: 'عذرًا لأن ذلك لم يساعدك. يمكنك صياغة سؤالك بطريقة أخرى، أو التحدث إلى شخص من فريقنا.',
    },
    neutral: {
      handover: 'سيتولى شخص من فريقنا هذه المحادثة ويرد هنا.',
      noAnswerHandover: 'لم يتم العثور على إجابة في مقالات المساعدة. سيتولى شخص من فريقنا هذه المحادثة ويرد هنا.',
      farewell: 'شكرًا. تم إغلاق هذه المحادثة، ويمكنك الكتابة مرة أخرى في أي وقت.',
      welcome: 'عفوًا. هل هناك شيء آخر؟',
      helped: 'شكرًا على ملاحظتك. هل هناك شيء آخر؟',
      notHelped: 'لم يجب ذلك عن السؤال. يمكنك صياغته بطريقة أخرى، أو التحدث إلى شخص من فريقنا.',
    },
    formal: {
      handover: 'بكل تأكيد. سأحولكم إلى أحد أعضاء فريقنا، وسيرد عليكم هنا في أقرب وقت ممكن.',
      noAnswerHandover:
        'نعتذر، لم أتمكن من العثور على الإجابة. سأحولكم إلى أحد أعضاء فريقنا، وسيرد عليكم هنا في أقرب وقت ممكن.',
      farewell:
        'على الرحب والسعة؛ يسعدني أنني تمكنت من مساعدتكم. سيتم إغلاق هذه المحادثة الآن. لا تترددوا في مراسلتنا مرة أخرى.',
      welcome: 'على الرحب والسعة. هل يمكنني مساعدتكم في أي أمر آخر؟',
      helped: 'يسعدني أن ذلك كان مفيدًا. هل يمكنني مساعدتكم في أي أمر آخر؟',
      notHelped: 'نأسف لأن ذلك لم يكن مفيدًا. يمكنكم صياغة سؤالكم بطريقة أخرى، أو التحدث مع أحد أعضاء فريقنا.',
    },
  },
  ja: {
    friendly: {
      handover: '承知しました。担当者におつなぎします。できるだけ早くこちらでお返事します。',
      noAnswerHandover:
        '申し訳ありません、答えが見つかりませんでした。担当者におつなぎします。できるだけ早くこちらでお返事します。',
      farewell:
        'どういたしまして！お役に立ててうれしいです。このチャットはこれで終了します。いつでもまたご連絡ください。',
      welcome: 'どういたしまして！ほかにお手伝いできることはありますか？',
      helped: 'お役に立ててよかったです！ほかにお手伝いできることはありますか？',
      notHelped: 'お役に立てず申し訳ありません。別の言い方で質問するか、担当者にお問い合わせください。',
    },
    neutral: {
      handover: '担当者がこの会話を引き継ぎ、こちらでお返事します。',
      noAnswerHandover: 'ヘルプ記事に答えが見つかりませんでした。担当者がこの会話を引き継ぎ、こちらでお返事します。',
      farewell: 'ありがとうございました。このチャットは終了しました。いつでも再度ご連絡いただけます。',
      welcome: 'どういたしまして。ほかにご用件はありますか？',
      helped: 'ご回答ありがとうございます。ほかにご用件はありますか？',
      notHelped: 'ご質問への回答になりませんでした。別の言い方で質問するか、担当者にお問い合わせください。',
    },
    formal: {
      handover: 'かしこまりました。担当者におつなぎいたします。こちらでできるだけ早くご返信いたします。',
      noAnswerHandover:
        '申し訳ございません。回答を見つけることができませんでした。担当者におつなぎいたします。こちらでできるだけ早くご返信いたします。',
      farewell:
        'どういたしまして。お役に立てて光栄です。この会話はこれで終了いたします。またいつでもお気軽にご連絡ください。',
      welcome: 'どういたしまして。ほかにお手伝いできることはございますか？',
      helped: 'お役に立てて何よりです。ほかにお手伝いできることはございますか？',
      notHelped: 'お役に立てず申し訳ございません。ご質問を別の表現でお尋ねいただくか、担当者にお問い合わせください。',
    },
  },
};
