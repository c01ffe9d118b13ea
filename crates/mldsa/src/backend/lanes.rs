//! Filling the lanes of a multi-way sponge: the batching that the x86-64 (four and eight lanes)
//! and AArch64 (two lanes) samplers share.

/// Takes the next batch of up to `W` outputs from `items` (index, output), writes their seeds
/// into `seeds` with `fill(seed, index)`, and returns how many lanes are real.
///
/// Dummy lanes (after the real ones) repeat the first seed; their outputs are `None`, so what
/// they compute is dropped. The seeds are written in place, into an array the caller zeroises,
/// so secret seeds are not copied around.
pub(crate) fn next_batch<'a, T, const S: usize, const W: usize>(
    items: &mut impl Iterator<Item = (usize, &'a mut T)>,
    seeds: &mut [[u8; S]; W],
    fill: impl Fn(&mut [u8; S], usize),
) -> (usize, [Option<&'a mut T>; W]) {
    let mut outs: [Option<&'a mut T>; W] = core::array::from_fn(|_| None);
    let mut n = 0;
    for (index, out) in items.take(W) {
        fill(&mut seeds[n], index);
        outs[n] = Some(out);
        n += 1;
    }
    for k in n.max(1)..W {
        seeds[k] = seeds[0];
    }
    (n, outs)
}
