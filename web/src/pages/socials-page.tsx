import { LuShare2 } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function SocialsPage() {
  return <ComingSoon title="Socials" subtitle="Follow us on social media and earn coins." icon={<LuShare2 />} />;
}
