/**
 * The retrieval brain's question set, written against the demo knowledge base (`demo/knowledge/`):
 * paraphrases of what customers ask (not the headings' own words), and questions it must not
 * answer — off-topic ones, and near misses that share a word or two with an article but ask
 * something it does not say. `expected` is the heading of the section that answers, or null for
 * "not sure". `npm run eval` prints the accuracy; `demo/retrieval-eval.test.ts` holds it.
 */
export interface EvalQuestion {
  question: string;
  expected: string | null;
}

export const EVAL_QUESTIONS: readonly EvalQuestion[] = [
  // In the articles' own words (what the demo suggests asking)
  { question: 'How do I return an item?', expected: 'How do I return an item?' },
  { question: 'Do you ship abroad?', expected: 'Do you ship abroad?' },
  { question: 'Which payment methods do you accept?', expected: 'Which payment methods do you accept?' },
  { question: 'How do I reset my password?', expected: 'Resetting your password' },
  { question: 'How much does shipping cost?', expected: 'How much does shipping cost?' },
  { question: 'When will I get my refund?', expected: 'When will I get my refund?' },
  // Your account
  { question: 'I forgot my password, what now?', expected: 'Resetting your password' },
  { question: "I can't log in, how do I get a new password?", expected: 'Resetting your password' },
  { question: 'password reset link', expected: 'Resetting your password' },
  { question: 'How can I update the email on my account?', expected: 'Changing your email address' },
  { question: 'I have a new email address, can I change it?', expected: 'Changing your email address' },
  { question: 'How do I close my account for good?', expected: 'Deleting your account' },
  { question: 'Please remove my account and my data', expected: 'Deleting your account' },
  // Orders
  { question: 'Can I still cancel what I ordered an hour ago?', expected: 'Changing or cancelling an order' },
  { question: 'I want to change something in my order', expected: 'Changing or cancelling an order' },
  { question: 'The package arrived and the vase inside is broken', expected: 'My order arrived damaged or broken' },
  { question: 'My item came damaged, what should I do?', expected: 'My order arrived damaged or broken' },
  { question: 'One of the things I bought is not in the box', expected: 'An item is missing from my order' },
  { question: 'Something is missing from my parcel', expected: 'An item is missing from my order' },
  // Payments
  { question: 'Can I pay with PayPal?', expected: 'Which payment methods do you accept?' },
  { question: 'Do you take Apple Pay or credit cards?', expected: 'Which payment methods do you accept?' },
  { question: 'What ways can I pay?', expected: 'Which payment methods do you accept?' },
  { question: 'Is my card data secure with you?', expected: 'Is it safe to pay on your site?' },
  { question: 'Is paying on this website safe?', expected: 'Is it safe to pay on your site?' },
  { question: 'Can I pay later with an invoice?', expected: 'Paying by invoice' },
  { question: 'Do you offer invoice payment in Germany?', expected: 'Paying by invoice' },
  // Returns and refunds
  { question: 'How can I send something back?', expected: 'How do I return an item?' },
  { question: 'I want to return my shoes', expected: 'How do I return an item?' },
  { question: 'How many days do I have to return an item?', expected: 'How do I return an item?' },
  { question: 'When do I get my money back?', expected: 'When will I get my refund?' },
  { question: 'How long does a refund take?', expected: 'When will I get my refund?' },
  { question: 'Can I return a gift card?', expected: 'Items that cannot be returned' },
  { question: 'Which products are not returnable?', expected: 'Items that cannot be returned' },
  {
    question: 'The shirt is too small, can I swap it for a bigger size?',
    expected: 'Exchanging an item for another size',
  },
  { question: 'How do I exchange for a different size?', expected: 'Exchanging an item for another size' },
  // Shipping and delivery
  { question: 'How long until my parcel arrives?', expected: 'How long does delivery take?' },
  { question: 'How fast is express delivery?', expected: 'How long does delivery take?' },
  { question: 'Is shipping free?', expected: 'How much does shipping cost?' },
  { question: 'What are the delivery costs?', expected: 'How much does shipping cost?' },
  { question: 'Do you deliver to Switzerland?', expected: 'Do you ship abroad?' },
  { question: 'Can you ship to the UK?', expected: 'Do you ship abroad?' },
  { question: 'Do you ship internationally?', expected: 'Do you ship abroad?' },
  { question: 'Where is my tracking link?', expected: 'Tracking a parcel' },
  { question: 'How can I track my parcel?', expected: 'Tracking a parcel' },

  // Asked about something the article answers by its list (Australia is not among the countries, bitcoin not among the methods).
  // Near misses: a word or two in common with an article, a question it does not answer.
  { question: 'Do you sell gift cards for teachers?', expected: null },
  { question: 'Gift wrapping for birthday presents?', expected: null },
  { question: 'Can I buy a gift card?', expected: null },
  { question: 'Do you have a store in Berlin where I can pick up my order?', expected: null },
  { question: 'Do you ship to Australia?', expected: 'Do you ship abroad?' },
  { question: 'Can I pay in bitcoin?', expected: 'Which payment methods do you accept?' },
  { question: 'Do you have a loyalty card or points?', expected: null },
  { question: 'What size should I order, do your shoes run small?', expected: null },
  { question: 'Is this jacket waterproof?', expected: null },
  { question: 'Do you offer student discounts?', expected: null },
  { question: 'Do you price match other shops?', expected: null },
  // Off-topic
  { question: "What's the weather like tomorrow?", expected: null },
  { question: 'Who won the football match yesterday?', expected: null },
  { question: 'Tell me a joke', expected: null },
  { question: 'What is the capital of France?', expected: null },
  { question: 'Are you hiring?', expected: null },
  { question: 'asdfgh qwerty', expected: null },
  // Another language than the knowledge base's
  { question: '¿Cómo puedo devolver un artículo?', expected: null },
  { question: 'Wie lange dauert der Versand?', expected: null },
];
