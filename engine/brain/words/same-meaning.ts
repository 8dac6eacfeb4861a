import type { ReadLanguage } from '../language.ts';

/**
 * Words of one family put in one word, in questions and articles alike, before they are searched:
 * "devuelvo", "devolver" and "devolución" meet, which stems alone do not do across verb and noun;
 * and a few ways customers say what articles say in other words ("money back" → "refund"). General
 * shop vocabulary per language, not one shop's, and kept short on purpose: a longer list tuned on
 * one set of questions stops generalising (docs/AI.md). Applied in order: earlier entries win.
 */
export const SAME_MEANING: Record<ReadLanguage, readonly [RegExp, string][]> = {
  en: [
    [/\bsend (?:\w+ )?back\b/g, 'return'],
    [/\bmoney back\b/g, 'refund'],
    [/\b(?:secure|safely)\b/g, 'safe'],
    [/\bwebsite\b/g, 'site'],
    [/\bswap\b/g, 'exchange'],
    [/\bways\b/g, 'methods'],
    [/\bdeliver(?:s)?\b/g, 'ship'],
    [/\binternationally\b/g, 'abroad'],
    [/\b(?:package|box)\b/g, 'parcel'],
    [/\b(?:log ?in|sign ?in)\b/g, 'sign in'],
    [/\bclose my account\b/g, 'delete my account'],
    [/\bremove my account\b/g, 'delete my account'],
    [/\bpick(?:ing)? (?:\w+ )?up\b/g, 'collect'],
  ],
  de: [
    [/geld\s+zurück/gu, 'erstattung'],
    [/(?:rück)?erstatt\p{L}*/gu, 'erstattung'],
    [/(?:zurück|rücksend|rückgabe|retour)\p{L}*/gu, 'rücksendung'],
    [/(?:um)?tausch\p{L}*/gu, 'umtausch'],
    [/(?:kosten|kostet|gebühr|preis)\p{L}*/gu, 'kosten'],
    [/(?:zahlungsart|zahlungsmethode|zahlungsmöglichkeit|bezahlmöglichkeit)\p{L}*/gu, 'zahlungsart'],
    [/(?:stornier|storno)\p{L}*/gu, 'stornieren'],
  ],
  es: [
    [/(?:devuelv|devolv|devoluci)\p{L}*/gu, 'devolver'],
    [/reembols\p{L}*/gu, 'reembolso'],
    [/(?:cuest|cost|precio)\p{L}*/gu, 'costar'],
    [/(?:cambi)\p{L}*/gu, 'cambiar'],
    [/(?:pag)(?:o|os|ar|ue|ué)\b/gu, 'pago'],
  ],
  fr: [
    [/(?:retour|renvo)\p{L}*/gu, 'retour'],
    [/rembours\p{L}*/gu, 'remboursement'],
    [/(?:co[uû]t|prix|frais)\p{L}*/gu, 'coût'],
    [/(?:pai|pay)(?:e|er|ement|ements|ez|é)\b/gu, 'paiement'],
    [/échang\p{L}*/gu, 'échange'],
  ],
};
