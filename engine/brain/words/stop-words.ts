import type { ReadLanguage } from '../language.ts';

/**
 * Words that say nothing about a question's topic, per language: left out so that "how do I" or
 * "wie kann ich" matches no section. Written by hand: the packaged lists drop words a shop's
 * customers mean something by ("zurück", "lange", "tiempo", "días").
 */
const LISTS: Record<ReadLanguage, string> = {
  en: `a an and are as at be but by can could do does did for from have has how i if in is it its me my of on
    or our so that the their them there this these those to was we what when where which who why will with would
    you your please hi hello hey want need get got take still now just any some something thing things one am im
    ive dont cant here us`,
  de: `der die das den dem des ein eine einen einem einer eines und oder aber ich mich mir mein meine meinen
    meinem meiner du sie ihr ihre ihren ihrem ihnen wir uns unser unsere er es man ist sind bin bist war
    waren wird werden wurde habe hat haben hatte kann können könnte konnte muss müssen soll sollte möchte
    will wollen würde wie was wann wo wer welche welcher welches warum ob zu zum zur im in an am auf aus bei
    mit von vom für über um bis nach noch schon auch nur denn doch mal bitte hallo hi guten tag danke ja nein
    nicht kein keine etwas so da dass wenn dann hier gibt es eigentlich gerne sagen mir`,
  es: `el la los las un una unos unas y o pero yo me mi mis tu tus su sus usted ustedes nos nuestro nuestra
    es son soy está están estoy era fue ser estar hay he ha han has puedo puede pueden podría quiero quisiera
    necesito debo tengo tiene tienen cómo como qué que cuándo cuando dónde donde quién cuál cuáles por qué
    porque a al de del en con para por sobre hasta desde ya también solo muy hola buenas gracias sí no favor
    lo le les se esto esta este eso esa ese algo si hacer decir`,
  fr: `le la les l un une des du de d et ou mais je j me m moi mon ma mes tu te vous votre vos il elle on nous
    notre nos ils elles est sont suis être ai as a ont avez avons peux peut pouvez pourrais voudrais veux
    voulez dois faut comment quoi que qu quel quelle quels quelles quand où qui pourquoi combien à au aux en
    dans sur pour par avec chez sans y ne pas plus déjà aussi seulement très bonjour salut merci oui non
    s'il plaît ce cet cette ces ça c se si est-ce faire dire`,
};

const wordsOf = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

export const STOP_WORDS: Record<ReadLanguage, ReadonlySet<string>> = {
  en: wordsOf(LISTS.en),
  de: wordsOf(LISTS.de),
  es: wordsOf(LISTS.es),
  fr: wordsOf(LISTS.fr),
};
