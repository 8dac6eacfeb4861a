/**
 * Plays a short chime for one message in exactly one tab: the tab that gets the Web Lock named
 * after the message plays; the others find it taken. Made with Web Audio, so it costs no file.
 */
export function chimeOnce(messageKey: string): void {
  const play = () => {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch {
      // No audio here: nothing to play.
    }
  };
  if (!navigator.locks) return play();
  navigator.locks
    .request(`parley-chime:${messageKey}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return;
      play();
      // Hold the lock long enough that the other tabs, told of the same message, find it taken.
      await new Promise((resolve) => setTimeout(resolve, 5000));
    })
    // Refused the lock (a frame on another site's page): this tab stands alone and plays.
    .catch(play);
}
