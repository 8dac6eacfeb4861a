/**
 * Tells a person on shift that a customer waits for them: a short two-note chime (Web Audio, no
 * file to load) and, when the browser allows it, a notification. Both are opt-in in the console.
 */
export function alertWaiting(who: string): void {
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
    // No sound where audio is not allowed yet; the notification and the list still say it.
  }
  if ('Notification' in window && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    new Notification('A customer is waiting', { body: `${who} asked for a person.`, tag: 'parley-waiting' });
  }
}
