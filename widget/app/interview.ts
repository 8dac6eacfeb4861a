/**
 * The interview chunk (issue 29): the home screen's button that starts the research interview the
 * inbox offers. It loads only for an inbox that offers one, so the home screen of every other inbox
 * carries none of it. Its look is the suggested questions' (the home chunk's styles).
 */
export { InterviewOffer } from './components/home/interview-offer.tsx';

export const CSS = '';
