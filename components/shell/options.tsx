// The <option>s of a select. Plain strings are their own value and label (roles, layers, modes); for records,
// `value` and `label` say which fields to show.
export function Options<T>({ values, value = String, label = value }: { values: readonly T[]; value?: (v: T) => string; label?: (v: T) => string }) {
  return (
    <>
      {values.map((v) => (
        <option key={value(v)} value={value(v)}>
          {label(v)}
        </option>
      ))}
    </>
  );
}
