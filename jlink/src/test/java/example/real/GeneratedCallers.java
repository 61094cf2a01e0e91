package example.real;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.MethodDelegation;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;

import java.lang.reflect.Proxy;

import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * Calls through classes generated at run time by two real generators: Byte Buddy (a class that
 * exists only in memory, in a class loader of its own, delegating to {@link Doubler}) and the
 * JDK's dynamic proxies. Each is called {@code rounds} times; prints the generated classes' names
 * and the sum.
 *
 * <p>Usage: {@code GeneratedCallers <rounds>}.
 */
public class GeneratedCallers {
    public interface Pricing {
        long price(long cents);
    }

    public static class Doubler {
        public static long twice(long cents) {
            return 2 * cents;
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Class<? extends Pricing> made = new ByteBuddy()
                .subclass(Pricing.class)
                .name("example.real.made.BuddyPricing")
                .method(named("price")).intercept(MethodDelegation.to(Doubler.class))
                .make()
                .load(GeneratedCallers.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
                .getLoaded();
        Pricing buddy = made.getDeclaredConstructor().newInstance();
        Pricing proxy = (Pricing) Proxy.newProxyInstance(GeneratedCallers.class.getClassLoader(), new Class<?>[] {Pricing.class},
                (self, method, arguments) -> method.getName().equals("price") ? (Long) arguments[0] + 1 : null);
        System.out.println("generated " + made.getName() + " by " + made.getClassLoader().getClass().getSimpleName()
                + ", " + proxy.getClass().getName());
        long sum = 0;
        for (int i = 0; i < rounds; i++) sum += buddy.price(i) + proxy.price(i);
        System.out.println("sum " + sum);
    }
}
