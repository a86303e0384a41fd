// Stripe's API takes application/x-www-form-urlencoded bodies with bracketed keys
// (metadata[userId]=u1&automatic_payment_methods[enabled]=true); this turns them into nested objects.

type FormValue = string | FormObject;
interface FormObject {
  [key: string]: FormValue;
}

export function parseForm(raw: string): Record<string, unknown> {
  const root: FormObject = {};
  for (const [fullKey, value] of new URLSearchParams(raw)) {
    const parts = fullKey.split('[').map((p, i) => (i === 0 ? p : p.replace(/\]$/, '')));
    let node: FormObject = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (typeof next === 'object') node = next;
      else {
        const created: FormObject = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return root;
}
