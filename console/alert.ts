/**
 * Tells a person on shift that a customer wants them: a short two-note chime (Web Audio, no file to
 * load) and, when the browser allows it and the console is not in view, a notification. Both are
 * opt-in in the console ("Alert me").
 */
function chime(): void {
  try {
    const audio = new AudioContext();
    const now = audio.currentTime;
    for (const [index, frequency] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.15, now + index * 0.18);
      volume.gain.exponentialRampToValueAtTime(0.001, now + index * 0.18 + 0.16);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + index * 0.18);
      tone.stop(now + index * 0.18 + 0.17);
    }
    setTimeout(() => void audio.close(), 600);
  } catch {
    // No sound where audio is not allowed yet; the notification, the title and the list still say it.
  }
}

function notify(title: string, body: string, tag: string): void {
  if ('Notification' in window && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    new Notification(title, { body, tag });
  }
}

/** A customer started waiting for a person (a handover). */
export function alertWaiting(who: string): void {
  chime();
  notify('A customer is waiting', `${who} asked for a person.`, 'parley-waiting');
}

/** A customer wrote in a conversation assigned to the person. */
export function alertMessage(who: string, conversationId: number): void {
  chime();
  notify(`New message from ${who}`, `In conversation #${conversationId}.`, `parley-message-${conversationId}`);
}
