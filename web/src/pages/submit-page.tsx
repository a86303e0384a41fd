import { LuCirclePlus } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function SubmitPage() {
  return <ComingSoon title="Submit" subtitle="Spend coins to bring new members to your server." icon={<LuCirclePlus />} />;
}
