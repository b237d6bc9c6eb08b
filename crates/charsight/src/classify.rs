//! Character classes shared by the detector's runtime and the table
//! generator (through `charsight::unstable`), so both classify alike.

/// Whether `c` is a letter of text (the generator's rule too): alphabetic,
/// and not a compatibility form of another letter (`ª`, `º`, `µ`, `ⁿ`:
/// their compatibility decomposition is not their canonical one), which
/// text uses as a symbol (`1º`, `10 µm`).
pub fn is_letter(c: char) -> bool {
    use unicode_normalization::char::{decompose_canonical, decompose_compatible};
    if !c.is_alphabetic() {
        return false;
    }
    // Few characters decompose: compare without allocating.
    let (mut canonical, mut compatible) = ([None; 4], [None; 4]);
    let mut i = 0;
    decompose_canonical(c, |d| {
        if let Some(slot) = canonical.get_mut(i) {
            *slot = Some(d);
        }
        i += 1;
    });
    let mut j = 0;
    decompose_compatible(c, |d| {
        if let Some(slot) = compatible.get_mut(j) {
            *slot = Some(d);
        }
        j += 1;
    });
    i == j && canonical == compatible
}
