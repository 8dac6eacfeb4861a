import { useEffect, useState } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';
import { attributesText, parseAttributes } from '../custom-attributes.ts';
import type { ContactChange, DeskContact } from '../types.ts';

interface Fields {
  name: string;
  email: string;
  phone: string;
  attributes: string;
}

const fieldsOf = (contact: DeskContact): Fields => ({
  name: contact.name,
  email: contact.email ?? '',
  phone: contact.phone_number ?? '',
  attributes: attributesText(contact.custom_attributes),
});

/** The change to save from the form, or the line of the attributes that is not `key: value`. */
function changeOf(fields: Fields): ContactChange | string {
  const parsed = parseAttributes(fields.attributes);
  if ('badLine' in parsed) return `Write each attribute as "key: value" (not "${parsed.badLine}").`;
  return {
    ...(fields.name.trim() ? { name: fields.name.trim() } : {}),
    email: fields.email.trim() || null,
    phone_number: fields.phone.trim() || null,
    custom_attributes: parsed.attributes,
  };
}

/** The customer's contact, edited: name, e-mail, phone (E.164) and custom attributes (`PATCH contacts/{id}`). */
export function ContactEditor({ store, contactId }: { store: DeskStore; contactId: number }) {
  const [fields, setFields] = useState<Fields | undefined>();
  const [said, setSaid] = useState('');
  useEffect(() => {
    setFields(undefined);
    setSaid('');
    void store.contact(contactId).then((contact) => contact && setFields(fieldsOf(contact)));
  }, [contactId, store]);
  if (!fields) return <p class="muted">Reading the contact…</p>;
  const field = (key: keyof Fields) => ({
    value: fields[key],
    onInput: (event: Event) => setFields({ ...fields, [key]: (event.currentTarget as HTMLInputElement).value }),
  });
  const save = async (event: Event) => {
    event.preventDefault();
    const change = changeOf(fields);
    if (typeof change === 'string') return setSaid(change);
    setSaid('');
    const saved = await store.saveContact(contactId, change);
    if (saved) {
      setFields(fieldsOf(saved));
      setSaid('Contact saved.');
    }
  };
  return (
    <form class="contact-form" onSubmit={(event) => void save(event)}>
      <label>
        Name
        <input {...field('name')} autoComplete="off" />
      </label>
      <label>
        E-mail
        <input type="email" {...field('email')} autoComplete="off" />
      </label>
      <label>
        Phone
        <input type="tel" placeholder="+4930123456" {...field('phone')} autoComplete="off" />
      </label>
      <label>
        Custom attributes
        <textarea rows={3} placeholder="plan: gold" {...field('attributes')} />
      </label>
      <button type="submit">Save contact</button>
      <p class="muted" role="status">
        {said}
      </p>
    </form>
  );
}
