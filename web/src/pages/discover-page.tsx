import { LuCompass } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function DiscoverPage() {
  return <ComingSoon title="Discover" subtitle="Find great Discord servers, join them and earn coins." icon={<LuCompass />} />;
}
