"use client";

/** A registry model picker, the recorded model marked: the fork and playground dialogs share it. */
export function ModelSelect({ models, recordedModel, value, onChange }: { models: string[]; recordedModel: string | null; value: string; onChange: (model: string) => void }) {
  return (
    <select aria-label="Model" value={value} onChange={(event) => onChange(event.target.value)}>
      {models.map((name) => (
        <option key={name} value={name}>
          {name}
          {name === recordedModel ? " (recorded)" : ""}
        </option>
      ))}
    </select>
  );
}
