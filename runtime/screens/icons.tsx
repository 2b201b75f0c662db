/**
 * Icons by name, as schemas write them ("PlusOutlined"), each loaded on demand
 * (runtime/icons/by-name.ts). An unknown name renders nothing rather than failing the
 * screen (schemas:check is where names are judged).
 */
import { NamedIcon } from '../icons/NamedIcon.tsx';

export function SchemaIcon({ name }: { name?: string }) {
  return <NamedIcon name={name} />;
}
