import type { ReplyChoice } from '../../../../shared/index.ts';

/** Buttons the customer can press instead of typing; pressing one sends its value. */
export function QuickReplies({
  choices,
  disabled,
  onChoose,
}: {
  choices: readonly ReplyChoice[];
  disabled: boolean;
  onChoose: (choice: ReplyChoice) => void;
}) {
  return (
    <div class="choices" role="group">
      {choices.map((choice) => (
        <button key={choice.value} type="button" class="choice" disabled={disabled} onClick={() => onChoose(choice)}>
          {choice.label}
        </button>
      ))}
    </div>
  );
}
