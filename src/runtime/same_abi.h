// Whether a function pointer declared by hand (for a library opened with dlopen: libcuda,
// libcublasLt) calls as the library's header declares it: as many parameters, a pointer where it
// has a pointer (a handle), an integer or enum of the same size elsewhere (results, enums).
#pragma once

#include <type_traits>

namespace thundercc::runtime {

template <class A, class B>
constexpr bool same_abi() {
  if constexpr (std::is_pointer_v<A> || std::is_pointer_v<B>) return std::is_pointer_v<A> && std::is_pointer_v<B>;
  else return (std::is_integral_v<A> || std::is_enum_v<A>) && (std::is_integral_v<B> || std::is_enum_v<B>) && sizeof(A) == sizeof(B);
}
template <class F, class G>
struct SameAbi : std::false_type {};
template <class R, class... A, class S, class... B>
struct SameAbi<R (*)(A...), S (*)(B...)> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(A) != sizeof...(B)) return false;
    else return same_abi<R, S>() && (same_abi<A, B>() && ...);
  }();
};

}  // namespace thundercc::runtime
