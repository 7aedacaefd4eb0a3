//! Network formats. `ipv4` and `cidr` use Go 1.16's parser (Kubernetes'
//! `ParseIPSloppy`/`ParseCIDRSloppy`, which accept leading zeros); `ipv6`
//! and IP domain literals use today's `net.ParseIP` (netip: at most four
//! hex digits per group, no leading zeros in an embedded IPv4 part, no
//! zone); `mac` is `net.ParseMAC`.

// Go's `big`: the bound of its decimal and hex field parsers.
const BIG: u32 = 0xFF_FFFF;

// Go 1.16 `dtoi`: the decimal number at the start, its length, and
// whether it has at least one digit and stays below `BIG`.
fn dtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return (BIG, i, false);
        }
        i += 1;
    }
    (n, i, i > 0)
}

// Go's `xtoi`: the same for hexadecimal digits.
fn xtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let Some(d) = char::from(s[i]).to_digit(16) else { break };
        n = n * 16 + d;
        if n >= BIG {
            return (0, i, false);
        }
        i += 1;
    }
    (n, i, i > 0)
}

// Go 1.16 `parseIPv4`: four decimal fields up to 255, leading zeros allowed.
fn sloppy_v4(mut s: &[u8]) -> bool {
    for i in 0..4 {
        if s.is_empty() {
            return false;
        }
        if i > 0 {
            if s[0] != b'.' {
                return false;
            }
            s = &s[1..];
        }
        let (n, c, ok) = dtoi(s);
        if !ok || n > 0xFF {
            return false;
        }
        s = &s[c..];
    }
    s.is_empty()
}

// The two IPv6 parsers Kubernetes uses: Go 1.16's (`ParseIPSloppy`) and
// today's netip (`net.ParseIP`).
#[derive(Clone, Copy)]
enum Dialect {
    Go116,
    Netip,
}

impl Dialect {
    // The length of the hex group at the start of `s`: Go 1.16 takes any
    // number of digits below 2^16, netip at most four.
    fn group(self, s: &[u8]) -> Option<usize> {
        match self {
            Dialect::Go116 => {
                let (n, c, ok) = xtoi(s);
                (ok && n <= 0xFFFF).then_some(c)
            }
            Dialect::Netip => {
                let digits = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
                (1..=4).contains(&digits).then_some(digits)
            }
        }
    }

    fn v4(self, s: &[u8]) -> bool {
        match self {
            Dialect::Go116 => sloppy_v4(s),
            Dialect::Netip => strict_v4(s),
        }
    }
}

// `parseIPv6`: hex groups separated by `:`, at most one `::` standing for
// at least one zero group, an IPv4 tail in the last 32 bits.
fn parse_v6(mut s: &[u8], dialect: Dialect) -> bool {
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix(b"::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return true;
        }
    }
    let mut i = 0;
    while i < 16 {
        let Some(c) = dialect.group(s) else { return false };
        if s.get(c) == Some(&b'.') {
            let fits = (ellipsis.is_some() || i == 12) && i + 4 <= 16 && dialect.v4(s);
            return fits && (i + 4 < 16) == ellipsis.is_some();
        }
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return false;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return false;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    s.is_empty() && (i < 16) == ellipsis.is_some()
}

/// Kubernetes' `ParseIPSloppy` (Go 1.16 `net.ParseIP`) succeeding.
pub(super) fn is_ip_sloppy(s: &str) -> bool {
    match s.bytes().find(|b| matches!(b, b'.' | b':')) {
        Some(b'.') => sloppy_v4(s.as_bytes()),
        Some(_) => parse_v6(s.as_bytes(), Dialect::Go116),
        None => false,
    }
}

/// `ipv4`: parses sloppily as an IP and contains a `.` (so IPv4-mapped
/// IPv6 addresses count).
pub(super) fn is_ipv4(s: &str) -> bool {
    is_ip_sloppy(s) && s.contains('.')
}

// netip's IPv4 fields: exactly four, each 0 to 255 without leading zeros.
fn strict_v4(s: &[u8]) -> bool {
    let fields: Vec<&[u8]> = s.split(|&b| b == b'.').collect();
    fields.len() == 4
        && fields.iter().all(|f| {
            !f.is_empty()
                && f.len() <= 3
                && f.iter().all(u8::is_ascii_digit)
                && !(f.len() > 1 && f[0] == b'0')
                && f.iter().fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0')) <= 255
        })
}

/// Today's `net.ParseIP` succeeding (zones are rejected).
pub(super) fn is_ip_strict(s: &str) -> bool {
    match s.bytes().find(|b| matches!(b, b'.' | b':' | b'%')) {
        Some(b'.') => strict_v4(s.as_bytes()),
        Some(b':') => !s.contains('%') && parse_v6(s.as_bytes(), Dialect::Netip),
        _ => false,
    }
}

/// `ipv6`: parses as an IP and contains a `:`.
pub(super) fn is_ipv6(s: &str) -> bool {
    is_ip_strict(s) && s.contains(':')
}

/// `cidr`: Kubernetes' `ParseCIDRSloppy`: an address, `/`, and a decimal
/// prefix length within the address size.
pub(super) fn is_cidr(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else { return false };
    let bits = if sloppy_v4(addr.as_bytes()) {
        32
    } else if parse_v6(addr.as_bytes(), Dialect::Go116) {
        128
    } else {
        return false;
    };
    let (n, i, ok) = dtoi(mask.as_bytes());
    ok && i == mask.len() && n <= bits
}

/// `mac`: `net.ParseMAC`: 6, 8 or 20 bytes as `xx:xx:...`, `xx-xx-...` or
/// `xxxx.xxxx...`.
pub(super) fn is_mac(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 14 {
        return false;
    }
    let sizes = |n: usize| matches!(n, 6 | 8 | 20);
    if b[2] == b':' || b[2] == b'-' {
        if !(b.len() + 1).is_multiple_of(3) || !sizes((b.len() + 1) / 3) {
            return false;
        }
        b.chunks(3).all(|chunk| hex_pair(&chunk[..2]) && (chunk.len() == 2 || chunk[2] == b[2]))
    } else if b[4] == b'.' {
        if !(b.len() + 1).is_multiple_of(5) || !sizes(2 * (b.len() + 1) / 5) {
            return false;
        }
        b.chunks(5).all(|chunk| {
            chunk.len() >= 4
                && hex_pair(&chunk[..2])
                && hex_pair(&chunk[2..4])
                && (chunk.len() == 4 || chunk[4] == b'.')
        })
    } else {
        false
    }
}

fn hex_pair(b: &[u8]) -> bool {
    b.len() == 2 && b.iter().all(u8::is_ascii_hexdigit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4() {
        assert!(is_ipv4("192.168.0.1") && is_ipv4("010.001.0.1") && is_ipv4("::ffff:1.2.3.4"));
        assert!(!is_ipv4("256.0.0.1") && !is_ipv4("1.2.3") && !is_ipv4("1.2.3.4.5") && !is_ipv4("::1"));
    }

    #[test]
    fn ipv6() {
        assert!(is_ipv6("::1") && is_ipv6("2001:db8::ff00:42:8329") && is_ipv6("::ffff:1.2.3.4") && is_ipv6("::"));
        assert!(!is_ipv6("1.2.3.4") && !is_ipv6("::1%eth0") && !is_ipv6("00001::") && !is_ipv6("::ffff:01.2.3.4"));
        assert!(!is_ipv6("1:2:3:4:5:6:7:8::") && !is_ipv6("1:2:3:4:5:6:7") && is_ipv6("1:2:3:4:5:6:7:8"));
        assert!(is_ip_sloppy("00001::") && !is_ip_sloppy("1:2:3:4:5:6:7:8:9"));
    }

    #[test]
    fn cidrs() {
        assert!(is_cidr("10.0.0.0/8") && is_cidr("010.0.0.0/08") && is_cidr("::/0") && is_cidr("2001:db8::/128"));
        assert!(!is_cidr("10.0.0.0/33") && !is_cidr("10.0.0.0") && !is_cidr("10.0.0.0/") && !is_cidr("::/129"));
    }

    #[test]
    fn macs() {
        assert!(is_mac("00:00:5e:00:53:01") && is_mac("00-00-5E-00-53-01") && is_mac("0000.5e00.5301"));
        assert!(is_mac("02:00:5e:10:00:00:00:01"));
        assert!(!is_mac("00:00:5e:00:53") && !is_mac("00:00:5e:00-53:01") && !is_mac("0000.5e00.530g"));
    }
}
