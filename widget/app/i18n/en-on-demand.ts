/**
 * The English of the parts that load on demand (the conversation list, the survey, the pre-chat
 * form), kept out of the first download: extras.ts adds it to `en` when it loads.
 */
export const enOnDemand = {
  noConversations: 'No conversations yet.',
  unreadCount: '{count} unread',
  resolved: 'Resolved',
  open: 'Open',
  surveyQuestion: 'How would you rate this conversation?',
  surveyComment: 'Anything you would like to add? (optional)',
  surveySubmit: 'Send rating',
  surveyThanks: 'Thank you for your feedback!',
  prechatIntro: 'Before we start, please tell us who you are.',
  name: 'Name',
  email: 'Email',
  start: 'Start chatting',
  emailInvalid: 'Please enter a valid email address.',
  nameRequired: 'Please enter your name.',
  // states
  limited: 'Too many requests came from your connection. You can chat again in about {wait}.',
  writeToUs: 'You can also write to us:',
  rating1: 'Very poor',
  rating2: 'Poor',
  rating3: 'Okay',
  rating4: 'Good',
  rating5: 'Excellent',
  saidBy: '{name}: {text}',
};
