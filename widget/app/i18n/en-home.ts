/**
 * The English of the home screen (the welcome, suggested questions and the help search before the
 * first message), kept out of the first download: home.ts adds it to `en` when it loads.
 */
export const enHome = {
  // home
  homeSuggested: 'Suggested questions',
  homeSearch: 'Search our help articles',
  homeResults: 'Articles',
  homeNoResults: 'No article matches “{q}”.',
  homeBack: 'Back',
  homeAsk: 'Ask about this',
  homeAskText: 'Tell me more about: {title}',
  homeInterview: 'Take our 1-minute survey',
  homeAway: 'We are away right now and will answer when we are back. Our AI assistant answers in the meantime.',
};
