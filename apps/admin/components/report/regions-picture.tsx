'use client';
// The copy with the regions where it differs from the issued picture outlined. Regions are in
// the file's own pixels, so they are placed once the browser knows the picture's size; without
// JavaScript the list beside it says where they are.
import type { ContentRegion } from '@hallmark/sdk';
import { useState } from 'react';

export function RegionsPicture(props: {
  readonly src: string;
  readonly regions: readonly ContentRegion[];
}) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const percent = (value: number, of: number) => `${(100 * value) / of}%`;
  return (
    <figure className="regions-picture">
      <div className="regions-frame">
        <img
          src={props.src}
          alt="The copy checked"
          onLoad={(event) =>
            setSize({
              width: event.currentTarget.naturalWidth,
              height: event.currentTarget.naturalHeight,
            })
          }
        />
        {size !== null &&
          props.regions.map((region) => (
            <span
              key={`${region.x},${region.y},${region.width},${region.height}`}
              className="region"
              data-testid="region"
              style={{
                left: percent(region.x, size.width),
                top: percent(region.y, size.height),
                width: percent(region.width, size.width),
                height: percent(region.height, size.height),
              }}
            />
          ))}
      </div>
    </figure>
  );
}
