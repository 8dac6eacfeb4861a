/**
 * The retrieval brain's multilingual question set, written against the demo knowledge base: the English
 * articles in `demo/knowledge/` and their German, Spanish and French versions in `demo/knowledge/{de,es,fr}/`,
 * which have the same sections in the same order.
 *
 * Two sets, written in this order:
 * - `HELD_OUT` was written first, before anyone tuned anything on multilingual questions. It measures how the
 *   brain does on questions nobody has looked at while tuning: read its score, never change the brain (or this
 *   set) to raise it. A question that turns out to be wrong is fixed here in the open, not quietly dropped.
 * - `TUNING` is the set to look at, debug against and tune on.
 *
 * `expected` is always the English `##` heading of the section that answers, so one grade serves every
 * language; null means the brain must say it is not sure. Kinds:
 * - `paraphrase`: the customer's everyday words, sharing no word of substance with the heading;
 * - `own_words`: in (or close to) the article's own words;
 * - `follow_up`: does not stand alone; `previous` is the customer's message before it;
 * - `two_part`: two questions in one; `second` answers the second part, or null when no article does;
 * - `near_miss`: shares words with an article but asks what no article says (null), or asks about something an
 *   article answers by its list (Japan is not among the countries it ships to: that article still answers);
 * - `decline`: off-topic, or about products, which no article covers.
 */
export type EvalLanguage = 'en' | 'de' | 'es' | 'fr';
export type EvalKind = 'paraphrase' | 'own_words' | 'follow_up' | 'two_part' | 'near_miss' | 'decline';

export interface EvalQuestion {
  question: string;
  language: EvalLanguage;
  kind: EvalKind;
  /** The ENGLISH heading of the section that answers it (the same section in every language), or null when the AI must say it is not sure. */
  expected: string | null;
  /** two_part only: the English heading that answers the second part, or null when nothing answers it. */
  second?: string | null;
  /** follow_up only: the customer's previous message in the same conversation (in the same language). */
  previous?: string;
}

export const HELD_OUT: readonly EvalQuestion[] = [
  // English
  {
    question: 'these jeans are too tight, can i get them one up instead?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Exchanging an item for another size',
  },
  {
    question: 'got the parcel today and the mug inside was smashed to bits',
    language: 'en',
    kind: 'paraphrase',
    expected: 'My order arrived damaged or broken',
  },
  {
    question: 'what cards can i use at checkout?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'i clicked buy by mistake 20 mins ago, can i still undo it?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Changing or cancelling an order',
  },
  {
    question: 'how do i get rid of my profile with you for good',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Deleting your account',
  },
  { question: 'when will i get my refund', language: 'en', kind: 'own_words', expected: 'When will I get my refund?' },
  {
    question: 'and is the label free or do i pay the postage?',
    previous: 'How do I return an item?',
    language: 'en',
    kind: 'follow_up',
    expected: 'How do I return an item?',
  },
  {
    question: 'what about norway?',
    previous: 'Do you deliver to Switzerland?',
    language: 'en',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'do you send to irland and how many days does it take to get there?',
    language: 'en',
    kind: 'two_part',
    expected: 'Do you ship abroad?',
    second: 'How long does delivery take?',
  },
  {
    question: 'can i cancel my order and do you do gift wrapping?',
    language: 'en',
    kind: 'two_part',
    expected: 'Changing or cancelling an order',
    second: null,
  },
  { question: 'can i collect my order from one of your shops?', language: 'en', kind: 'near_miss', expected: null },
  { question: 'do you deliver to the usa?', language: 'en', kind: 'near_miss', expected: 'Do you ship abroad?' },
  {
    question: "what's the weather going to be like tomorrow in hamburg?",
    language: 'en',
    kind: 'decline',
    expected: null,
  },
  { question: 'write me a short poem about autumn', language: 'en', kind: 'decline', expected: null },
  { question: 'is the merino jumper itchy?', language: 'en', kind: 'decline', expected: null },
  { question: 'who won the champions league last year?', language: 'en', kind: 'decline', expected: null },

  // German
  {
    question: 'ich komm nicht mehr in mein konto, weiß mein kennwort nicht mehr',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Resetting your password',
  },
  {
    question: 'hab jetzt ein neues postfach bei gmx, wie trag ich das bei euch ein?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Changing your email address',
  },
  {
    question: 'In meinem Paket war nur eine von zwei Hosen drin.',
    language: 'de',
    kind: 'paraphrase',
    expected: 'An item is missing from my order',
  },
  {
    question: 'die retoure ist seit montag bei euch, wie lange dauert die gutschrift noch?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'When will I get my refund?',
  },
  {
    question: 'nehmt ihr auch amex?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  { question: 'Was kostet der Versand?', language: 'de', kind: 'own_words', expected: 'How much does shipping cost?' },
  {
    question: 'und nach england?',
    previous: 'Liefern Sie auch in die Schweiz?',
    language: 'de',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'und wie lange hab ich dafür zeit?',
    previous: 'Wie schicke ich etwas zurück?',
    language: 'de',
    kind: 'follow_up',
    expected: 'How do I return an item?',
  },
  {
    question: 'kann ich aus österreich auf rechnung bestellen und was kostet mich der versand?',
    language: 'de',
    kind: 'two_part',
    expected: 'Paying by invoice',
    second: 'How much does shipping cost?',
  },
  {
    question: 'Wie schnell ist Express und kann ich das Paket dann unterwegs verfolgen?',
    language: 'de',
    kind: 'two_part',
    expected: 'How long does delivery take?',
    second: 'Tracking a parcel',
  },
  {
    question: 'Kann ich mir die Bestellung an eine Packstation schicken lassen?',
    language: 'de',
    kind: 'near_miss',
    expected: null,
  },
  {
    question: 'ich brauche eine rechnung mit ausgewiesener mwst für meine firma',
    language: 'de',
    kind: 'near_miss',
    expected: null,
  },
  { question: 'wie wird das wetter am wochenende?', language: 'de', kind: 'decline', expected: null },
  { question: 'schreib mir ein gedicht über katzen', language: 'de', kind: 'decline', expected: null },
  { question: 'Ist die Daunenjacke auch für minus 20 Grad geeignet?', language: 'de', kind: 'decline', expected: null },
  { question: 'Können Sie mir bei meiner Steuererklärung helfen?', language: 'de', kind: 'decline', expected: null },

  // Spanish
  {
    question: 'me llegó el paquete y la taza venía hecha añicos',
    language: 'es',
    kind: 'paraphrase',
    expected: 'My order arrived damaged or broken',
  },
  {
    question: 'si compro hoy, ¿para cuándo lo tengo en casa?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'How long does delivery take?',
  },
  {
    question: 'quiero darme de baja de vuestra web y que borréis mis datos',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Deleting your account',
  },
  {
    question: '¿puedo mandaros de vuelta una crema que ya he abierto?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Items that cannot be returned',
  },
  {
    question: 'donde veo por donde va mi paquete?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Tracking a parcel',
  },
  { question: '¿Cómo devuelvo un artículo?', language: 'es', kind: 'own_words', expected: 'How do I return an item?' },
  {
    question: '¿y a Suiza?',
    previous: '¿Enviáis a Austria?',
    language: 'es',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: '¿puede que venga en otro paquete?',
    previous: 'Me ha llegado el pedido y falta una camiseta',
    language: 'es',
    kind: 'follow_up',
    expected: 'An item is missing from my order',
  },
  {
    question: '¿Me podría decir si hacen envíos a Canadá y cuánto costaría?',
    language: 'es',
    kind: 'two_part',
    expected: 'Do you ship abroad?',
    second: 'How much does shipping cost?',
  },
  {
    question: 'quiero cambiar unas zapatillas por un número más y saber cuándo me devolvéis el dinero',
    language: 'es',
    kind: 'two_part',
    expected: 'Exchanging an item for another size',
    second: 'When will I get my refund?',
  },
  {
    question: '¿se puede pagar contra reembolso?',
    language: 'es',
    kind: 'near_miss',
    expected: 'Which payment methods do you accept?',
  },
  { question: '¿tenéis tienda física para recoger el pedido?', language: 'es', kind: 'near_miss', expected: null },
  { question: '¿qué tiempo hará mañana en Sevilla?', language: 'es', kind: 'decline', expected: null },
  { question: 'cuéntame un chiste', language: 'es', kind: 'decline', expected: null },
  { question: '¿el vestido rojo de lino encoge al lavarlo?', language: 'es', kind: 'decline', expected: null },
  { question: '¿me recomiendas una receta de paella?', language: 'es', kind: 'decline', expected: null },

  // French
  {
    question: "impossible de me connecter, je ne me souviens plus de mes codes d'accès",
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Resetting your password',
  },
  {
    question: 'vous prenez paypal ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'le pull me serre, je peux le remplacer par un L ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Exchanging an item for another size',
  },
  {
    question: "c'est bien protégé quand je rentre ma carte bancaire chez vous ?",
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Is it safe to pay on your site?',
  },
  {
    question: "j'ai pris deux fois le même article par erreur il y a dix minutes, vous pouvez en retirer un ?",
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Changing or cancelling an order',
  },
  {
    question: 'Combien coûte la livraison ?',
    language: 'fr',
    kind: 'own_words',
    expected: 'How much does shipping cost?',
  },
  {
    question: "et j'ai combien de temps ?",
    previous: 'Comment retourner un article ?',
    language: 'fr',
    kind: 'follow_up',
    expected: 'How do I return an item?',
  },
  {
    question: 'et en suisse ?',
    previous: 'Est-ce que vous livrez en Belgique ?',
    language: 'fr',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'mon colis est arrivé avec un vase cassé et en plus il manque les bougies',
    language: 'fr',
    kind: 'two_part',
    expected: 'My order arrived damaged or broken',
    second: 'An item is missing from my order',
  },
  {
    question: 'je peux payer par virement ? et vous livrez le samedi ?',
    language: 'fr',
    kind: 'two_part',
    expected: 'Which payment methods do you accept?',
    second: null,
  },
  { question: 'vous livrez au japon ?', language: 'fr', kind: 'near_miss', expected: 'Do you ship abroad?' },
  { question: 'je peux acheter une carte cadeau pour ma sœur ?', language: 'fr', kind: 'near_miss', expected: null },
  { question: 'quel temps fera-t-il demain à Lyon ?', language: 'fr', kind: 'decline', expected: null },
  { question: 'écris-moi un poème sur la mer', language: 'fr', kind: 'decline', expected: null },
  { question: 'est-ce que ce canapé existe en vert ?', language: 'fr', kind: 'decline', expected: null },
  { question: "c'est quoi la capitale de l'Australie ?", language: 'fr', kind: 'decline', expected: null },
];

export const TUNING: readonly EvalQuestion[] = [
  // English
  {
    question: 'Can I swap these shoes for a bigger pair?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Exchanging an item for another size',
  },
  {
    question: "nothing's back on my card yet, how long till i see the money?",
    language: 'en',
    kind: 'paraphrase',
    expected: 'When will I get my refund?',
  },
  {
    question: 'can i send back a mug with my name printed on it?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Items that cannot be returned',
  },
  {
    question: 'i need to put my new gmail adress on my profile',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Changing your email address',
  },
  {
    question: "the box came but one of the two lamps isn't in it",
    language: 'en',
    kind: 'paraphrase',
    expected: 'An item is missing from my order',
  },
  {
    question: 'do you guys take google pay',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'is it ok to type my credit card details in here or could they get stolen?',
    language: 'en',
    kind: 'paraphrase',
    expected: 'Is it safe to pay on your site?',
  },
  {
    question: 'How long does delivery take?',
    language: 'en',
    kind: 'own_words',
    expected: 'How long does delivery take?',
  },
  { question: 'tracking a parcel', language: 'en', kind: 'own_words', expected: 'Tracking a parcel' },
  {
    question: 'and how long do I have?',
    previous: 'How do I return an item?',
    language: 'en',
    kind: 'follow_up',
    expected: 'How do I return an item?',
  },
  {
    question: 'and to Norway?',
    previous: 'Do you ship to Austria?',
    language: 'en',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'and if i want it faster?',
    previous: 'How much does shipping cost?',
    language: 'en',
    kind: 'follow_up',
    expected: 'How much does shipping cost?',
  },
  {
    question: 'Do you ship to Canada, and how much does it cost?',
    language: 'en',
    kind: 'two_part',
    expected: 'Do you ship abroad?',
    second: 'How much does shipping cost?',
  },
  {
    question: 'how do i change my email, and can i change my username too?',
    language: 'en',
    kind: 'two_part',
    expected: 'Changing your email address',
    second: null,
  },
  { question: 'Do you ship to Japan?', language: 'en', kind: 'near_miss', expected: 'Do you ship abroad?' },
  { question: 'Can I pick up my order in your store?', language: 'en', kind: 'near_miss', expected: null },
  {
    question: 'my headphones broke after 3 months, is there a warranty?',
    language: 'en',
    kind: 'near_miss',
    expected: null,
  },
  { question: "What's the weather tomorrow?", language: 'en', kind: 'decline', expected: null },
  { question: 'Write me a poem', language: 'en', kind: 'decline', expected: null },
  { question: 'does the blue hoodie run small?', language: 'en', kind: 'decline', expected: null },
  { question: 'can you recommend a good laptop for gaming?', language: 'en', kind: 'decline', expected: null },
  { question: "what's 17 times 23", language: 'en', kind: 'decline', expected: null },

  // German
  {
    question: 'die schuhe drücken, kann ich stattdessen die 43 haben?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Exchanging an item for another size',
  },
  {
    question: 'Das Paket ist heute gekommen, aber die Vase ist in Scherben.',
    language: 'de',
    kind: 'paraphrase',
    expected: 'My order arrived damaged or broken',
  },
  {
    question: 'kann ich irgendwo nachschauen wo meine bestelung grad unterwegs ist?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Tracking a parcel',
  },
  {
    question: 'Bitte entfernen Sie mein Profil und alle meine Daten bei Ihnen.',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Deleting your account',
  },
  {
    question: 'Ich hab vor einer halben Stunde was gekauft und mich bei der Farbe vertan, geht da noch was?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Changing or cancelling an order',
  },
  {
    question: 'kann ich bei euch mit apple pay zahlen?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'kann ich ein angebrochenes duschgel zurückschicken?',
    language: 'de',
    kind: 'paraphrase',
    expected: 'Items that cannot be returned',
  },
  {
    question: 'Wie lange dauert die Lieferung?',
    language: 'de',
    kind: 'own_words',
    expected: 'How long does delivery take?',
  },
  { question: 'kauf auf rechnung', language: 'de', kind: 'own_words', expected: 'Paying by invoice' },
  {
    question: 'und nach Österreich?',
    previous: 'Liefert ihr nach Norwegen?',
    language: 'de',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'und wann ist das geld dann wieder da?',
    previous: 'Wie kann ich etwas zurückschicken?',
    language: 'de',
    kind: 'follow_up',
    expected: 'When will I get my refund?',
  },
  {
    question: 'der link geht nicht mehr, wie lange ist der denn gültig?',
    previous: 'Ich habe mein Passwort vergessen.',
    language: 'de',
    kind: 'follow_up',
    expected: 'Resetting your password',
  },
  {
    question: 'Was kostet Express und kommt das dann wirklich am nächsten Tag?',
    language: 'de',
    kind: 'two_part',
    expected: 'How much does shipping cost?',
    second: 'How long does delivery take?',
  },
  {
    question: 'Kann ich meine E-Mail-Adresse ändern, und gibt es bei Ihnen ein Treueprogramm?',
    language: 'de',
    kind: 'two_part',
    expected: 'Changing your email address',
    second: null,
  },
  {
    question: 'Kann ich in der Schweiz auch auf Rechnung zahlen?',
    language: 'de',
    kind: 'near_miss',
    expected: 'Paying by invoice',
  },
  {
    question: 'Kann der Bote das Paket auch beim Nachbarn abgeben?',
    language: 'de',
    kind: 'near_miss',
    expected: null,
  },
  { question: 'wie löse ich einen gutschein ein?', language: 'de', kind: 'near_miss', expected: null },
  { question: 'wie spät ist es gerade in new york?', language: 'de', kind: 'decline', expected: null },
  { question: 'Erzähl mir einen Witz', language: 'de', kind: 'decline', expected: null },
  { question: 'Ist die Jeans aus Bio-Baumwolle?', language: 'de', kind: 'decline', expected: null },
  {
    question: 'Wer hat gestern das Spiel Bayern gegen Dortmund gewonnen?',
    language: 'de',
    kind: 'decline',
    expected: null,
  },
  { question: 'Kannst du mir ein Bewerbungsschreiben formulieren?', language: 'de', kind: 'decline', expected: null },

  // Spanish
  {
    question: 'no me acuerdo de la clave para entrar, ¿qué hago?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Resetting your password',
  },
  {
    question: 'me he hecho un gmail nuevo, ¿cómo lo actualizo en mi perfil?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Changing your email address',
  },
  {
    question: '¿me cobráis los portes si gasto 30 euros?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'How much does shipping cost?',
  },
  {
    question: 'llevo una semana esperando a que me devolváis el dinero de lo que os mandé',
    language: 'es',
    kind: 'paraphrase',
    expected: 'When will I get my refund?',
  },
  {
    question: '¿Puedo abonar la compra con tarjeta de crédito?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'me mandasteis dos cajas y en ninguna estan los calcetines',
    language: 'es',
    kind: 'paraphrase',
    expected: 'An item is missing from my order',
  },
  {
    question: 'me he equivocado de color al comprar hace diez minutos, ¿se puede arreglar?',
    language: 'es',
    kind: 'paraphrase',
    expected: 'Changing or cancelling an order',
  },
  { question: '¿Hacéis envíos internacionales?', language: 'es', kind: 'own_words', expected: 'Do you ship abroad?' },
  {
    question: 'cambiar un artículo por otra talla',
    language: 'es',
    kind: 'own_words',
    expected: 'Exchanging an item for another size',
  },
  {
    question: '¿y cuánto tiempo tengo?',
    previous: '¿Cómo devuelvo un artículo?',
    language: 'es',
    kind: 'follow_up',
    expected: 'How do I return an item?',
  },
  {
    question: '¿y a Noruega?',
    previous: '¿Hacen ustedes envíos a Francia?',
    language: 'es',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: '¿y el exprés?',
    previous: '¿Cuánto tarda el envío normal?',
    language: 'es',
    kind: 'follow_up',
    expected: 'How long does delivery take?',
  },
  {
    question: '¿Es seguro pagar con tarjeta en su web? ¿Y qué tarjetas aceptan?',
    language: 'es',
    kind: 'two_part',
    expected: 'Is it safe to pay on your site?',
    second: 'Which payment methods do you accept?',
  },
  {
    question: 'cuanto cuesta el envio a portugal y puedo elegir la hora de entrega?',
    language: 'es',
    kind: 'two_part',
    expected: 'How much does shipping cost?',
    second: null,
  },
  { question: '¿aceptáis bizum?', language: 'es', kind: 'near_miss', expected: 'Which payment methods do you accept?' },
  { question: '¿vendéis tarjetas regalo?', language: 'es', kind: 'near_miss', expected: null },
  {
    question: '¿me podéis mandar el pedido a un punto de recogida en vez de a casa?',
    language: 'es',
    kind: 'near_miss',
    expected: null,
  },
  { question: '¿quién ganó el clásico el domingo?', language: 'es', kind: 'decline', expected: null },
  { question: 'escríbeme un poema de amor', language: 'es', kind: 'decline', expected: null },
  { question: '¿las zapatillas blancas sirven para correr?', language: 'es', kind: 'decline', expected: null },
  { question: 'tradúceme esto al inglés: buenos días', language: 'es', kind: 'decline', expected: null },
  { question: '¿Cuál es la capital de Canadá?', language: 'es', kind: 'decline', expected: null },

  // French
  {
    question: 'je voudrais fermer définitivement mon espace client',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Deleting your account',
  },
  {
    question: 'je passe de hotmail à gmail, comment je le mets à jour sur mon profil ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Changing your email address',
  },
  {
    question: 'au bout de combien de temps je reçois mon colis ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'How long does delivery take?',
  },
  {
    question: "j'ai renvoyé le paquet et je n'ai toujours pas revu mon argent",
    language: 'fr',
    kind: 'paraphrase',
    expected: 'When will I get my refund?',
  },
  {
    question: 'ou je trouve le lien pour voir ou en est mon paquet ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Tracking a parcel',
  },
  {
    question: "je peux renvoyer une crème que j'ai déjà entamée ?",
    language: 'fr',
    kind: 'paraphrase',
    expected: 'Items that cannot be returned',
  },
  {
    question: 'les frais de port sont offerts ?',
    language: 'fr',
    kind: 'paraphrase',
    expected: 'How much does shipping cost?',
  },
  {
    question: 'Quels moyens de paiement acceptez-vous ?',
    language: 'fr',
    kind: 'own_words',
    expected: 'Which payment methods do you accept?',
  },
  {
    question: 'il manque un article dans ma commande',
    language: 'fr',
    kind: 'own_words',
    expected: 'An item is missing from my order',
  },
  {
    question: 'même depuis la Belgique ?',
    previous: 'Je peux payer sur facture ?',
    language: 'fr',
    kind: 'follow_up',
    expected: 'Paying by invoice',
  },
  {
    question: 'et en suisse alors ?',
    previous: 'tu sais si vous livrez en Allemagne ?',
    language: 'fr',
    kind: 'follow_up',
    expected: 'Do you ship abroad?',
  },
  {
    question: 'je dois vous la renvoyer ?',
    previous: 'Ma lampe est arrivée cassée',
    language: 'fr',
    kind: 'follow_up',
    expected: 'My order arrived damaged or broken',
  },
  {
    question: 'Je voudrais un jean une taille au-dessus, et le retour est-il gratuit ?',
    language: 'fr',
    kind: 'two_part',
    expected: 'Exchanging an item for another size',
    second: 'How do I return an item?',
  },
  {
    question: 'Sous combien de jours je suis livrée, et vous faites le retrait en magasin ?',
    language: 'fr',
    kind: 'two_part',
    expected: 'How long does delivery take?',
    second: null,
  },
  { question: 'Vous livrez au Canada ?', language: 'fr', kind: 'near_miss', expected: 'Do you ship abroad?' },
  { question: 'je peux me faire livrer en point relais ?', language: 'fr', kind: 'near_miss', expected: null },
  { question: 'est-ce que je peux modifier mon pseudo ?', language: 'fr', kind: 'near_miss', expected: null },
  { question: 'quel temps il fait demain ?', language: 'fr', kind: 'decline', expected: null },
  { question: 'raconte-moi une blague', language: 'fr', kind: 'decline', expected: null },
  { question: 'la veste en cuir est-elle imperméable ?', language: 'fr', kind: 'decline', expected: null },
  { question: "tu peux m'aider à faire mes devoirs de maths ?", language: 'fr', kind: 'decline', expected: null },
  { question: 'qui a gagné la coupe du monde 2018 ?', language: 'fr', kind: 'decline', expected: null },
];
