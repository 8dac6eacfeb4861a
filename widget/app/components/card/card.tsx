import type { ReplyCard } from '../../../../shared/index.ts';

/** A small card of facts that came with an answer (for example an order's status). */
export function Card({ card }: { card: ReplyCard }) {
  return (
    <div class="card">
      <p class="card-title">{card.title}</p>
      <dl>
        {card.fields.map((field) => (
          <div key={field.label} class="card-row">
            <dt>{field.label}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
